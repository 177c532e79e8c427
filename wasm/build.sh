#!/usr/bin/env bash
# Builds wasm/dist/usearch.{wasm,js} from the pinned `usearch` npm package's headers
# with Debian's emscripten (apt-get install emscripten). Deterministic: the same
# toolchain gives the same bytes, which .ci/run checks against the committed files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
version=2.26.2

pkg="$root/node_modules/usearch"
actual=$(node -p "require('$pkg/package.json').version" 2>/dev/null || echo missing)
if [ "$actual" != "$version" ]; then
  echo "wasm/build.sh: expected usearch@$version in node_modules (found: $actual); run npm ci" >&2
  exit 1
fi

build="$here/build"
rm -rf "$build" && mkdir -p "$build" "$here/dist"
cp -r "$pkg/include" "$build/include"
for p in "$here"/patches/*.patch; do
  patch --quiet -d "$build" -p1 < "$p"
done

# Debian's emscripten finds its JS optimizer's dependencies (acorn) only here.
export NODE_PATH=/usr/share/nodejs

cd "$here"
emcc binding.cpp -o dist/usearch.js \
  -I "$build/include" -Wno-unused-function \
  -ffile-prefix-map="$here"=. -ffile-prefix-map="$build"=build \
  -std=c++17 -O3 -msimd128 -fno-exceptions -fno-rtti -DNDEBUG \
  -DUSEARCH_USE_NUMKONG=0 -DUSEARCH_USE_OPENMP=0 -DUSEARCH_USE_FP16LIB=0 \
  -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=createUsearchModule \
  -sENVIRONMENT=web,worker -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0 \
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sABORTING_MALLOC=0 \
  -sINITIAL_MEMORY=16MB -sTOTAL_STACK=1MB \
  -sEXPORTED_RUNTIME_METHODS=[] -sINCOMING_MODULE_JS_API=[instantiateWasm,wasmBinary] \
  -sEXPORTED_FUNCTIONS=[_malloc,_free]
rm -rf "$build"
ls -l dist/
