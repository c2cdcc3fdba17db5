// HEIC and HEIF photos (an iPhone's and a Mac's, HEVC-compressed) decoded to pixels by libheif
// compiled to WebAssembly (libheif-js), at build only. sharp's prebuilt libvips reads these files'
// headers but cannot decode HEVC (patents). libheif applies the image's rotation and mirroring
// (its irot and imir boxes) as it decodes, which is how a HEIF file is shown; the EXIF orientation
// an iPhone also writes says the same and must not be applied a second time.
import libheif, { type HeifError } from "libheif-js/wasm-bundle.js";

type DecodedPhoto = { width: number; height: number; channels: 3 | 4; data: Buffer };

/** A binding's result, or its error thrown (libheif reports errors as values with a `code`). */
function ok<T extends object>(result: T, what: string): Exclude<T, HeifError> {
  if ("code" in result && "message" in result && result.code !== libheif.heif_error_code.heif_error_Ok) throw new Error(`${what}: ${String(result.message)}`);
  return result as Exclude<T, HeifError>;
}

/** The primary image of a HEIC or HEIF file, upright, as RGB (RGBA when it has an alpha channel). */
export function decodeHeic(bytes: Uint8Array): DecodedPhoto {
  const context = libheif.heif_context_alloc();
  try {
    ok(libheif.heif_context_read_from_memory(context, bytes), "not a HEIF file");
    const handle = ok(libheif.heif_js_context_get_primary_image_handle(context), "no primary image");
    try {
      const width = libheif.heif_image_handle_get_width(handle);
      const height = libheif.heif_image_handle_get_height(handle);
      // sharp's own limit for any other photo (limitInputPixels): a camera's 200 megapixels pass.
      if (width * height > 0x3fff * 0x3fff) throw new Error(`is too large (${width}x${height} pixels)`);
      const channels = libheif.heif_image_handle_has_alpha_channel(handle) ? 4 : 3;
      const { heif_chroma_interleaved_RGB: rgb, heif_chroma_interleaved_RGBA: rgba } = libheif.heif_chroma;
      const decoded = ok(libheif.heif_js_decode_image2(handle, libheif.heif_colorspace.heif_colorspace_RGB, channels === 4 ? rgba : rgb), "cannot be decoded");
      try {
        const plane = decoded.channels[0];
        if (!plane || plane.width !== width || plane.height !== height) throw new Error("decodes to a size other than its own");
        // Copied out of the WebAssembly memory row by row, as rows may be padded (stride).
        const row = width * channels;
        const data = Buffer.alloc(row * height);
        for (let y = 0; y < height; y++) data.set(plane.data.subarray(y * plane.stride, y * plane.stride + row), y * row);
        return { width, height, channels, data };
      } finally {
        libheif.heif_image_release(decoded.image);
      }
    } finally {
      libheif.heif_image_handle_release(handle);
    }
  } finally {
    libheif.heif_context_free(context);
  }
}
