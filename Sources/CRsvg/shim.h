#include <dlfcn.h>
#include <gio/gio.h>

// librsvg is loaded with dlopen when a scene's first SVG contents are read, not linked
// (as FFmpeg is, Sources/CFFmpeg/shim.h): with gdk-pixbuf, libjpeg and cairo-gobject it cost every
// process millions of instructions of loading and relocation, though most scenes draw no
// SVG. The soname is librsvg's stable librsvg-2.so.2.
//
// rsvg.h is not included: its include path comes only from `pkg-config librsvg-2.0`,
// which would link the library again. The few declarations below are librsvg 2.52's
// (stable C API); `clang -fsyntax-only -DKINETIC_RSVG_CHECK $(pkg-config --cflags
// librsvg-2.0) -x c Sources/CRsvg/shim.h` compiles them beside the real header, which
// refuses any that differ (Tests/cli/run.sh runs it).
#ifdef KINETIC_RSVG_CHECK
#include <librsvg/rsvg.h>
#else
typedef struct _cairo cairo_t;  // as cairo.h declares it
typedef struct _RsvgHandle RsvgHandle;
typedef struct _RsvgRectangle { double x; double y; double width; double height; } RsvgRectangle;
typedef struct { double length; int unit; } RsvgLength;
typedef enum { RSVG_HANDLE_FLAGS_NONE = 0 } RsvgHandleFlags;
#endif
RsvgHandle *rsvg_handle_new_from_stream_sync(GInputStream *input_stream, GFile *base_file, RsvgHandleFlags flags,
                                             GCancellable *cancellable, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, gdouble *out_width, gdouble *out_height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *out_has_width, RsvgLength *out_width,
                                          gboolean *out_has_height, RsvgLength *out_height, gboolean *out_has_viewbox,
                                          RsvgRectangle *out_viewbox);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);

// The functions Kinetic calls (an X-macro: one list makes the table and its loader).
#define KINETIC_RSVG_FUNCTIONS(F) \
    F(rsvg_handle_new_from_stream_sync) F(rsvg_handle_set_dpi) F(rsvg_handle_get_intrinsic_size_in_pixels) \
    F(rsvg_handle_get_intrinsic_dimensions) F(rsvg_handle_render_document)

/// librsvg's functions, each field named and typed as the function it points to.
struct kinetic_rsvg {
#define KINETIC_RSVG_FIELD(name) __typeof__(name) *_Nonnull name;
    KINETIC_RSVG_FUNCTIONS(KINETIC_RSVG_FIELD)
#undef KINETIC_RSVG_FIELD
};

/// Loads the library (never unloaded) and fills `f`. Returns NULL, or dlerror()'s message
/// (copy it at once) with `f` partly filled.
static inline const char *_Nullable kinetic_rsvg_load(struct kinetic_rsvg *_Nonnull f) {
    void *lib = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return dlerror();
#define KINETIC_RSVG_SYMBOL(name) if (!(f->name = (__typeof__(name) *)dlsym(lib, #name))) return dlerror();
    KINETIC_RSVG_FUNCTIONS(KINETIC_RSVG_SYMBOL)
#undef KINETIC_RSVG_SYMBOL
    return NULL;
}
