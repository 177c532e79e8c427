/**
 * The container of Word, PowerPoint and Excel files (docs/guide/documents.md): tells a legacy or
 * password-protected file from an Office Open XML zip, inflates only the parts a converter asks
 * for within a bound, and parses them as XML. Only the converters import this module, and they are
 * loaded on demand, so fflate and xmldom stay out of what every worker loads.
 */
import { DOMParser } from '@xmldom/xmldom';
import { Inflate } from 'fflate';
import { throwIfAborted } from '../../abort.js';
import { type ErrorCode, LongshipError } from '../../errors.js';
import { nextTask } from '../../next-task.js';
import type { Converter, ConvertOptions } from './converted.js';

/** The kinds of Office file, by extension; the legacy binary one drops the `x`. */
export type OfficeExtension = 'docx' | 'pptx' | 'xlsx';

const applications: Record<OfficeExtension, string> = { docx: 'Word', pptx: 'PowerPoint', xlsx: 'Excel' };

/** A file's inflated parts, by path inside the zip (no leading `/`). */
export type OfficeParts = ReadonlyMap<string, Uint8Array>;

const MB = 1024 * 1024;

/**
 * The most a file's inflated parts may add up to: 20 times its size, at least 10 MB (small files
 * of repetitive XML compress far better than 20 to 1) and at most 200 MB. Past it the file is a
 * zip bomb or too big to read in a worker's memory.
 */
export function inflateLimit(byteLength: number): number {
  return Math.min(200 * MB, Math.max(10 * MB, 20 * byteLength));
}

/**
 * A converter that fails only with a LongshipError: whatever else a damaged file provokes in the
 * parsers (a stack overflow on absurd nesting, a missing element) is `CORRUPT_INPUT`, its cause
 * the original failure.
 *
 * @example
 * export const convertPptx = officeConverter('pptx', async (bytes, options) => ({ markdown: '', scannedPages: [] }));
 */
export function officeConverter(extension: OfficeExtension, convert: Converter): Converter {
  return async (bytes, options) => {
    try {
      return await convert(bytes, options);
    } catch (error) {
      if (error instanceof LongshipError) throw error;
      const app = applications[extension];
      throw officeError('CORRUPT_INPUT', options, `not a readable ${app} file: ${String(error)}`, error);
    }
  };
}

/** `code` with a message that names the file, as every converter error does. */
export function officeError(code: ErrorCode, options: ConvertOptions, message: string, cause?: unknown) {
  return new LongshipError(code, `${options.name}: ${message}`, cause === undefined ? undefined : { cause });
}

/** The OLE compound file magic: legacy .doc/.ppt/.xls, and Office's password-protected files. */
const compoundMagic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** The stream Office writes into the compound file that wraps an encrypted package. */
const encryptionInfo = utf16le('EncryptionInfo');
/** How far into a compound file to look for that stream's name besides its first directory sector. */
const scanBytes = 512 * 1024;

function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes[i * 2] = text.charCodeAt(i);
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  return prefix.every((byte, i) => bytes[at + i] === byte);
}

function includes(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number): boolean {
  const end = Math.min(bytes.length, to) - pattern.length;
  outer: for (let i = Math.max(0, from); i <= end; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Whether a compound file holds an `EncryptionInfo` stream: its name, UTF-16LE, in the first
 * directory sector (found from the header) or in the first 512 KB.
 */
function isEncrypted(bytes: Uint8Array): boolean {
  if (includes(bytes, encryptionInfo, 0, scanBytes)) return true;
  if (bytes.length < 512) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorSize = 2 ** view.getUint16(0x1e, true);
  const directory = (view.getUint32(0x30, true) + 1) * sectorSize;
  return sectorSize <= 4096 && includes(bytes, encryptionInfo, directory, directory + sectorSize);
}

/** Refuses what is not an Office Open XML zip: a compound file (legacy or encrypted), or no zip. */
function checkContainer(bytes: Uint8Array, options: ConvertOptions, extension: OfficeExtension): void {
  const app = applications[extension];
  if (startsWith(bytes, compoundMagic)) {
    if (isEncrypted(bytes)) {
      throw officeError(
        'ENCRYPTED_INPUT',
        options,
        `the ${app} file is password-protected; remove the password in ${app} and add it again`,
      );
    }
    throw officeError(
      'UNSUPPORTED_INPUT',
      options,
      `a legacy binary ${app} file (.${extension.slice(0, -1)}) cannot be read; save it as .${extension} in ${app} and add that`,
    );
  }
  // A zip starts with a local file header ("PK\3\4"), or is empty ("PK\5\6").
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && !startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    throw officeError('CORRUPT_INPUT', options, `not a ${app} file (.${extension}): it is not a zip archive`);
  }
}

/** One file of the zip's central directory. */
interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

/** A zip64 extra field's 8-byte values replace the 32-bit fields that hold 0xffffffff, in order. */
function applyZip64(view: DataView, extra: number, extraEnd: number, entry: ZipEntry): void {
  for (let at = extra; at + 4 <= extraEnd; at += 4 + view.getUint16(at + 2, true)) {
    if (view.getUint16(at, true) !== 1) continue;
    let field = at + 4;
    const next = () => {
      const value = Number(view.getBigUint64(field, true));
      field += 8;
      return value;
    };
    if (entry.size === 0xffffffff) entry.size = next();
    if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
    if (entry.localHeader === 0xffffffff) entry.localHeader = next();
  }
}

/** Reads the central directory; throws a plain Error (wrapped by the caller) on anything amiss. */
function centralDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && end >= bytes.length - 22 - 0xffff && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0 || end < bytes.length - 22 - 0xffff) throw new Error('no end of central directory: truncated?');
  let count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (end >= 20 && view.getUint32(end - 20, true) === 0x07064b50) {
    const end64 = Number(view.getBigUint64(end - 12, true));
    if (view.getUint32(end64, true) !== 0x06064b50) throw new Error('bad zip64 end of central directory');
    count = Number(view.getBigUint64(end64 + 32, true));
    at = Number(view.getBigUint64(end64 + 48, true));
  }
  const names = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const entry: ZipEntry = {
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeader: view.getUint32(at + 42, true),
    };
    const extra = at + 46 + nameLength;
    applyZip64(view, extra, extra + extraLength, entry);
    entries.push(entry);
    at = extra + extraLength + view.getUint16(at + 32, true);
  }
  return entries;
}

/**
 * Inflates one entry to exactly the size the directory gives, never more: a part whose data
 * inflates past it lied about its size (a zip bomb's trick) and is refused after at most one
 * pushed slice's output, instead of after inflating all of it.
 */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(entry.localHeader, true) !== 0x04034b50)
    throw new Error(`bad local header of ${entry.name}`);
  const start = entry.localHeader + 30 + view.getUint16(entry.localHeader + 26, true);
  const data = start + view.getUint16(entry.localHeader + 28, true);
  if (data + entry.compressedSize > bytes.length) throw new Error(`${entry.name} is cut short: truncated?`);
  const compressed = bytes.subarray(data, data + entry.compressedSize);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw new Error(`${entry.name}: stored sizes disagree`);
    return compressed.slice();
  }
  if (entry.method !== 8) throw new Error(`${entry.name}: unknown compression method ${entry.method}`);
  const out = new Uint8Array(entry.size);
  let length = 0;
  const inflate = new Inflate((chunk) => {
    if (length + chunk.length > out.length) throw new Error(`${entry.name} inflates past its stated size`);
    out.set(chunk, length);
    length += chunk.length;
  });
  const slice = 16 * 1024;
  for (let i = 0; i < compressed.length || i === 0; i += slice) {
    inflate.push(compressed.subarray(i, i + slice), i + slice >= compressed.length);
  }
  if (length !== out.length) throw new Error(`${entry.name} inflates short of its stated size`);
  return out;
}

/** The parts of a deck or a workbook its converter reads: XML and relationships, never media. */
export const isXmlPart = (path: string): boolean => /\.(?:xml|rels)$/i.test(path) && !/\/media\//.test(path);

/**
 * Opens an Office file's zip and inflates the parts `wanted` keeps (a converter skips images).
 * Throws `ENCRYPTED_INPUT`, `UNSUPPORTED_INPUT` (legacy binary), `CORRUPT_INPUT`,
 * `INPUT_TOO_LARGE` (past {@link inflateLimit}) or `ABORTED`, each naming the file.
 *
 * @example
 * const parts = openOfficeZip(bytes, { name: 'deck.pptx', maxPages: 500 }, 'pptx', (path) => path.endsWith('.xml'));
 */
export function openOfficeZip(
  bytes: Uint8Array,
  options: ConvertOptions,
  extension: OfficeExtension,
  wanted: (path: string) => boolean,
): OfficeParts {
  throwIfAborted(options.signal, `reading ${options.name}`);
  checkContainer(bytes, options, extension);
  const app = applications[extension];
  let entries: ZipEntry[];
  try {
    entries = centralDirectory(bytes).filter((entry) => !entry.name.endsWith('/') && wanted(entry.name));
  } catch (error) {
    throw officeError('CORRUPT_INPUT', options, `a damaged ${app} file: ${String(error)}`, error);
  }
  if (entries.some((entry) => entry.flags & 1)) {
    throw officeError('ENCRYPTED_INPUT', options, 'its zip archive is password-protected');
  }
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  const limit = inflateLimit(bytes.length);
  if (total > limit) {
    throw officeError(
      'INPUT_TOO_LARGE',
      options,
      `its parts inflate to ${Math.ceil(total / MB)} MB, over the ${Math.floor(limit / MB)} MB allowed for a ${app} file of its size`,
    );
  }
  const parts = new Map<string, Uint8Array>();
  for (const entry of entries) {
    throwIfAborted(options.signal, `reading ${options.name}`);
    try {
      parts.set(entry.name.replace(/^\//, ''), inflateEntry(bytes, entry));
    } catch (error) {
      throw officeError('CORRUPT_INPUT', options, `a damaged ${app} file: ${String(error)}`, error);
    }
  }
  return parts;
}

/** Part text: UTF-8 unless it starts with a UTF-16 byte order mark. */
export function decodePart(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder().decode(bytes);
}

/** The element a part is parsed inside; no Office part has one. */
const wrapper = 'longship-part';

/**
 * A part parsed as XML; `CORRUPT_INPUT` when it is missing or is not XML. Office XML is matched
 * by local names throughout, so Strict OOXML (other namespace URIs) reads the same.
 */
export function xmlPart(parts: OfficeParts, path: string, options: ConvertOptions): Element {
  const bytes = parts.get(path);
  if (!bytes) throw officeError('CORRUPT_INPUT', options, `the part ${path} is missing`);
  let root: Element | null;
  try {
    const parser = new DOMParser({
      errorHandler: {
        warning: () => undefined,
        error: () => undefined,
        fatalError: (message: unknown) => {
          throw new Error(String(message));
        },
      },
    });
    // Inside a wrapper element: xmldom scans a document's top-level nodes again for each node it
    // adds there, and once a damaged part's root closes early all that follows lands there (minutes
    // for a few hundred KB). Inside an element, a node is added in constant time.
    const text = decodePart(bytes).replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '');
    if (text.includes(`</${wrapper}`)) throw new Error(`it closes a <${wrapper}>`);
    const parsed = parser.parseFromString(`<${wrapper}>${text}</${wrapper}>`, 'application/xml');
    root = parsed.documentElement ? (childElements(parsed.documentElement)[0] ?? null) : null;
  } catch (error) {
    throw officeError('CORRUPT_INPUT', options, `the part ${path} is not valid XML`, error);
  }
  if (!root) throw officeError('CORRUPT_INPUT', options, `the part ${path} is not valid XML`);
  return root;
}

/** The child elements of `parent` with this local name (any, when omitted), in order. */
export function childElements(parent: Element, localName?: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (localName === undefined || (node as Element).localName === localName)) {
      found.push(node as Element);
    }
  }
  return found;
}

/** The first child element of `parent` with this local name. */
export function childElement(parent: Element, localName: string): Element | undefined {
  return childElements(parent, localName)[0];
}

/** Every element under `root` with this local name, in document order (no recursion: nesting is the file's). */
export function descendants(root: Element, localName: string): Element[] {
  const found: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element !== root && element.localName === localName) found.push(element);
    const children = childElements(element);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

/** An element's `r:id`: the `id` attribute in a relationships namespace, whatever its prefix. */
export function relationshipId(element: Element): string | undefined {
  for (let i = 0; i < element.attributes.length; i++) {
    const attribute = element.attributes.item(i)!;
    if (attribute.localName === 'id' && attribute.namespaceURI?.endsWith('/relationships'))
      return attribute.value;
  }
  return undefined;
}

/** A part's relationship: its type URI's last segment (`slide`, `notesSlide`) and its target part. */
export interface Relationship {
  type: string;
  target: string;
}

/** Resolves a relationship target against the folder of the part that names it. */
function resolveTarget(from: string, target: string): string {
  const segments = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

/** The relationships of the part at `path` by id (empty when it has none); external ones left out. */
export function relationships(
  parts: OfficeParts,
  path: string,
  options: ConvertOptions,
): Map<string, Relationship> {
  const slash = path.lastIndexOf('/');
  const relsPath = `${path.slice(0, slash + 1)}_rels/${path.slice(slash + 1)}.rels`;
  const found = new Map<string, Relationship>();
  if (!parts.has(relsPath)) return found;
  for (const element of childElements(xmlPart(parts, relsPath, options), 'Relationship')) {
    if (element.getAttribute('TargetMode') === 'External') continue;
    found.set(element.getAttribute('Id') ?? '', {
      type: (element.getAttribute('Type') ?? '').split('/').at(-1) ?? '',
      target: resolveTarget(path, element.getAttribute('Target') ?? ''),
    });
  }
  return found;
}

/** `INPUT_TOO_LARGE` when a deck has more slides, or a workbook more sheets, than `maxPages`. */
export function checkPageCount(count: number, options: ConvertOptions, what: string): void {
  if (count > options.maxPages) {
    throw officeError('INPUT_TOO_LARGE', options, `${count} ${what}, over the limit of ${options.maxPages}`);
  }
}

/** How long a converter works between letting the event loop run. */
const sliceMs = 50;

/**
 * A step a converter awaits between slides or sheets: the first time, and then once per 50 ms of
 * work, it lets the event loop run (a worker's abort message can only arrive so), then checks the
 * signal.
 *
 * @example
 * const step = createCheckpoint(options);
 * for (const slide of slides) { await step(); read(slide); }
 */
export function createCheckpoint(options: ConvertOptions): () => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    if (Date.now() - last >= sliceMs) {
      await nextTask();
      last = Date.now();
    }
    throwIfAborted(options.signal, `reading ${options.name}`);
  };
}
