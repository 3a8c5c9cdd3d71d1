// Grouped by kind; each group is a space-separated list of lower-case extensions with the dot.
const GROUPS = [
  // images
  [
    '.png .jpg .jpeg .gif .bmp .ico .icns .webp .tif .tiff .psd .heic .heif .avif .jxl .raw',
    '.cr2 .nef .xcf',
  ].join(' '),
  // archives and packages
  [
    '.zip .tar .gz .tgz .bz2 .tbz2 .xz .txz .7z .rar .zst .lz .lz4 .lzma .cab .jar .war',
    '.ear .aar .apk .ipa .whl .egg .nupkg .deb .rpm .dmg .iso .img .msi .crx .xpi .vsix',
    '.gem',
  ].join(' '),
  // fonts
  '.woff .woff2 .ttf .otf .eot .ttc .pfb',
  // audio and video
  [
    '.mp3 .mp4 .m4a .m4v .wav .ogg .oga .ogv .flac .aac .opus .wma .avi .mov .mkv .webm',
    '.wmv .flv .mpg .mpeg .3gp .mid .midi',
  ].join(' '),
  // executables, objects and bytecode
  [
    '.exe .dll .so .dylib .o .obj .a .lib .ko .elf .bin .class .pyc .pyo .pyd .wasm .node',
    '.pdb .ilk .dex .beam .luac .rlib',
  ].join(' '),
  // documents
  '.pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .epub .mobi .pages .numbers',
  // data, databases and models
  [
    '.sqlite .sqlite3 .db .mdb .accdb .dbf .parquet .avro .orc .feather .arrow .pkl .pickle',
    '.npy .npz .h5 .hdf5 .onnx .pt .pth .ckpt .safetensors .gguf .tflite .pb .mat',
  ].join(' '),
  // design, 3D and other media
  '.swf .fla .blend .fbx .glb .3ds .sketch .fig .ai .indd .lockb .tga .dds .exr .hdr .cur .ani .svgz',
  // certificates in DER form, compiled message catalogues, opaque data and game packs
  '.der .cer .crt .p7b .mo .gmo .dat .pak',
];

/** Whole file names (lower case) that hold binary content whatever their extension. */
export const BINARY_FILE_NAMES: ReadonlySet<string> = new Set(['.ds_store']);

/**
 * Extensions (lower case, with the dot) whose files are expected to hold binary content: such
 * content there is `binary`, elsewhere `unexpected-binary`. The name alone decides nothing.
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(GROUPS.join(' ').split(' '));
