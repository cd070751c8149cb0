#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <webp/encode.h>
#include <webp/mux.h>

// libwebp is loaded with dlopen when a WebP is first written, not linked (as FFmpeg is,
// Sources/CFFmpeg/shim.h): most processes never write one, and every process paid for
// mapping and relocating it. The sonames are those of Debian's libwebp7 and libwebpmux3
// (the headers name no soname; their ABI versions are passed to the *Internal calls).

// The functions Kinetic calls, by library (X-macros: one list makes the table and its
// loader). The headers' inline helpers (WebPConfigInit, WebPAnimEncoderNew, …) call
// the *Internal functions, so those are listed and the helpers are rewritten below.
#define KINETIC_WEBP_FUNCTIONS(F) \
    F(WebPConfigInitInternal) F(WebPValidateConfig) F(WebPPictureInitInternal) F(WebPPictureFree) \
    F(WebPPictureImportRGBA) F(WebPFree)
#define KINETIC_WEBPMUX_FUNCTIONS(F) \
    F(WebPAnimEncoderOptionsInitInternal) F(WebPAnimEncoderNewInternal) F(WebPAnimEncoderAdd) \
    F(WebPAnimEncoderAssemble) F(WebPAnimEncoderGetError) F(WebPAnimEncoderDelete)

/// libwebp's functions, each field named and typed as the function it points to.
struct kinetic_webp {
#define KINETIC_WEBP_FIELD(name) __typeof__(name) *_Nonnull name;
    KINETIC_WEBP_FUNCTIONS(KINETIC_WEBP_FIELD)
    KINETIC_WEBPMUX_FUNCTIONS(KINETIC_WEBP_FIELD)
#undef KINETIC_WEBP_FIELD
};

/// Loads the two libraries (never unloaded) and fills `f`. Returns NULL, or dlerror()'s
/// message (copy it at once) with `f` partly filled.
static inline const char *_Nullable kinetic_webp_load(struct kinetic_webp *_Nonnull f) {
    void *lib;
#define KINETIC_WEBP_OPEN(soname) if (!(lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL))) return dlerror();
#define KINETIC_WEBP_SYMBOL(name) if (!(f->name = (__typeof__(name) *)dlsym(lib, #name))) return dlerror();
    KINETIC_WEBP_OPEN("libwebp.so.7")
    KINETIC_WEBP_FUNCTIONS(KINETIC_WEBP_SYMBOL)
    KINETIC_WEBP_OPEN("libwebpmux.so.3")
    KINETIC_WEBPMUX_FUNCTIONS(KINETIC_WEBP_SYMBOL)
#undef KINETIC_WEBP_OPEN
#undef KINETIC_WEBP_SYMBOL
    return NULL;
}

// The headers' inline helpers, through the table (passed by value: Swift holds it in a `let`).
static inline int kinetic_webp_config_init(struct kinetic_webp f, WebPConfig *_Nonnull config) {
    return f.WebPConfigInitInternal(config, WEBP_PRESET_DEFAULT, 75.f, WEBP_ENCODER_ABI_VERSION);
}
static inline int kinetic_webp_picture_init(struct kinetic_webp f, WebPPicture *_Nonnull picture) {
    return f.WebPPictureInitInternal(picture, WEBP_ENCODER_ABI_VERSION);
}
static inline int kinetic_webp_anim_options_init(struct kinetic_webp f, WebPAnimEncoderOptions *_Nonnull options) {
    return f.WebPAnimEncoderOptionsInitInternal(options, WEBP_MUX_ABI_VERSION);
}
static inline WebPAnimEncoder *_Nullable kinetic_webp_anim_encoder_new(struct kinetic_webp f, int width, int height,
                                                                       const WebPAnimEncoderOptions *_Nonnull options) {
    return f.WebPAnimEncoderNewInternal(width, height, options, WEBP_MUX_ABI_VERSION);
}
static inline void kinetic_webp_data_clear(struct kinetic_webp f, WebPData *_Nonnull data) {
    if (data->bytes != NULL) f.WebPFree((void *)data->bytes);
    memset(data, 0, sizeof(*data));
}
