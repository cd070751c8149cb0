#include <dlfcn.h>
#include <zip.h>

// libzip is loaded with dlopen when a dotLottie archive is first written, not linked (as
// FFmpeg is, Sources/CFFmpeg/shim.h): it brings libcrypto and libbz2, whose loading and
// relocation cost every process about 7 M instructions, though only `-o NAME.lottie`
// calls it. The soname is Debian's libzip4 (the headers name none).

// The functions Kinetic calls (an X-macro: one list makes the table and its loader).
#define KINETIC_ZIP_FUNCTIONS(F) \
    F(zip_close) F(zip_discard) F(zip_error_fini) F(zip_error_init) F(zip_error_strerror) F(zip_file_add) \
    F(zip_file_set_dostime) F(zip_get_error) F(zip_open_from_source) F(zip_set_file_compression) \
    F(zip_source_buffer) F(zip_source_buffer_create) F(zip_source_close) F(zip_source_error) F(zip_source_free) \
    F(zip_source_keep) F(zip_source_open) F(zip_source_read) F(zip_source_stat) F(zip_stat_init)

/// libzip's functions, each field named and typed as the function it points to.
struct kinetic_zip {
#define KINETIC_ZIP_FIELD(name) __typeof__(name) *_Nonnull name;
    KINETIC_ZIP_FUNCTIONS(KINETIC_ZIP_FIELD)
#undef KINETIC_ZIP_FIELD
};

/// Loads the library (never unloaded) and fills `f`. Returns NULL, or dlerror()'s message
/// (copy it at once) with `f` partly filled.
static inline const char *_Nullable kinetic_zip_load(struct kinetic_zip *_Nonnull f) {
    void *lib = dlopen("libzip.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return dlerror();
#define KINETIC_ZIP_SYMBOL(name) if (!(f->name = (__typeof__(name) *)dlsym(lib, #name))) return dlerror();
    KINETIC_ZIP_FUNCTIONS(KINETIC_ZIP_SYMBOL)
#undef KINETIC_ZIP_SYMBOL
    return NULL;
}
