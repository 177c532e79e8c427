// How a model's files reach transformers.js where it fetches them (browsers, workers, workerd):
// transformers.js asks for `<localModelPath><name>/<file>`, and a fetch of our own answers from the
// file's URL or from its bytes. So each file may live anywhere (a bundler's hashed asset, another
// host, bytes a workerd module binding holds), and nothing is ever asked of the hub.

import { pageLocation, readPackageFile } from '../env/runtime.js';
import type { ModelFile } from './bundled-model.js';

/** Where the router pretends the model folder is; never requested from a server. */
export const routedFolder = '/longship-model/';
/** The model's name inside {@link routedFolder} when it has none of its own. */
export const routedName = 'model';

/** A file of the model by its name in the folder (`onnx/model_quantized.onnx`), or undefined. */
export type FileLookup = (name: string) => ModelFile | undefined;

/** The lookup of a folder at a URL: every name is a file under it. */
export function folderLookup(directory: URL): FileLookup {
  const base = directory.href.endsWith('/') ? directory : new URL(`${directory.href}/`);
  return (name) => new URL(name, base);
}

/**
 * A `fetch` for transformers.js's `env.fetch` while a routed model loads. A file the model does not
 * have answers 404, which transformers.js takes as "optional file missing"; a request outside the
 * folder is refused, so that nothing else is fetched behind the caller's back.
 */
export function modelFileFetch(name: string, lookup: FileLookup): (input: string | URL) => Promise<Response> {
  const prefix = `${routedFolder}${name}/`;
  return async (input) => {
    const path = String(input);
    if (!path.startsWith(prefix)) {
      throw new Error(`Longship refused a model file outside the model's folder: ${path}`);
    }
    const file = lookup(decodeURIComponent(path.slice(prefix.length)));
    if (file === undefined) return new Response(null, { status: 404 });
    if (file instanceof ArrayBuffer || ArrayBuffer.isView(file)) return new Response(file as BodyInit);
    const found = await readPackageFile(typeof file === 'string' ? resolveUrl(file) : file);
    return found instanceof Response ? found : new Response(found);
  };
}

/** A file's URL given as a string: absolute, or relative to the worker's (or page's) location. */
function resolveUrl(url: string): URL {
  const here = pageLocation();
  return here ? new URL(url, here.href) : new URL(url);
}
