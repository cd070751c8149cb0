#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/cpu.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// FFmpeg is loaded with dlopen when a video is first written, not linked: its four
// libraries bring in 93 shared objects (x264, x265, libvpx, dav1d, …) whose loading and
// relocation took 60 of the 81 ms every `kinetic` process spent starting, in every
// `batch` child and every `validate`, though most runs never write a video (issue 15).
// The sonames are those of the headers compiled against, so the ABI is the one checked.

// The functions Kinetic calls, by library (X-macros: one list makes the table and its
// loader).
#define KINETIC_AVUTIL_FUNCTIONS(F) \
    F(av_d2q) F(av_dict_free) F(av_dict_get) F(av_dict_set) F(av_frame_alloc) F(av_frame_free) \
    F(av_frame_get_buffer) F(av_get_cpu_flags) F(av_get_pix_fmt) F(av_get_pix_fmt_name) \
    F(av_image_check_size) F(av_image_fill_linesizes) F(av_log_set_level) F(av_pix_fmt_desc_get) \
    F(av_strerror)
#define KINETIC_AVCODEC_FUNCTIONS(F) \
    F(av_packet_alloc) F(av_packet_free) F(av_packet_rescale_ts) F(av_packet_unref) \
    F(avcodec_alloc_context3) F(avcodec_find_encoder_by_name) F(avcodec_free_context) F(avcodec_open2) \
    F(avcodec_parameters_from_context) F(avcodec_receive_packet) F(avcodec_send_frame)
#define KINETIC_AVFORMAT_FUNCTIONS(F) \
    F(av_interleaved_write_frame) F(av_write_trailer) F(avformat_alloc_output_context2) \
    F(avformat_free_context) F(avformat_new_stream) F(avformat_write_header) F(avio_closep) F(avio_open)
#define KINETIC_SWSCALE_FUNCTIONS(F) \
    F(sws_freeContext) F(sws_getCoefficients) F(sws_getContext) F(sws_scale) F(sws_setColorspaceDetails)

/// FFmpeg's functions, each field named and typed as the function it points to.
struct kinetic_ffmpeg {
#define KINETIC_FFMPEG_FIELD(name) __typeof__(name) *_Nonnull name;
    KINETIC_AVUTIL_FUNCTIONS(KINETIC_FFMPEG_FIELD)
    KINETIC_AVCODEC_FUNCTIONS(KINETIC_FFMPEG_FIELD)
    KINETIC_AVFORMAT_FUNCTIONS(KINETIC_FFMPEG_FIELD)
    KINETIC_SWSCALE_FUNCTIONS(KINETIC_FFMPEG_FIELD)
#undef KINETIC_FFMPEG_FIELD
};

/// Loads the four libraries (never unloaded) and fills `f`. Returns NULL, or dlerror()'s
/// message (copy it at once) with `f` partly filled.
static inline const char *_Nullable kinetic_ffmpeg_load(struct kinetic_ffmpeg *_Nonnull f) {
    void *lib;
#define KINETIC_FFMPEG_OPEN(soname) if (!(lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL))) return dlerror();
#define KINETIC_FFMPEG_SYMBOL(name) if (!(f->name = (__typeof__(name) *)dlsym(lib, #name))) return dlerror();
    KINETIC_FFMPEG_OPEN("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR))
    KINETIC_AVUTIL_FUNCTIONS(KINETIC_FFMPEG_SYMBOL)
    KINETIC_FFMPEG_OPEN("libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR))
    KINETIC_AVCODEC_FUNCTIONS(KINETIC_FFMPEG_SYMBOL)
    KINETIC_FFMPEG_OPEN("libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR))
    KINETIC_AVFORMAT_FUNCTIONS(KINETIC_FFMPEG_SYMBOL)
    KINETIC_FFMPEG_OPEN("libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR))
    KINETIC_SWSCALE_FUNCTIONS(KINETIC_FFMPEG_SYMBOL)
#undef KINETIC_FFMPEG_OPEN
#undef KINETIC_FFMPEG_SYMBOL
    return NULL;
}

// Function-like macros and flag expressions Swift cannot import.
static inline int kinetic_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int kinetic_averror_eof(void) { return AVERROR_EOF; }
static inline int kinetic_codec_flag_bitexact(void) { return AV_CODEC_FLAG_BITEXACT; }
static inline int kinetic_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int kinetic_format_flag_bitexact(void) { return AVFMT_FLAG_BITEXACT; }
static inline int kinetic_format_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int kinetic_format_nofile(void) { return AVFMT_NOFILE; }
static inline int kinetic_cpu_has_avx512(const struct kinetic_ffmpeg *_Nonnull f) {
    return (f->av_get_cpu_flags() & AV_CPU_FLAG_AVX512) != 0;
}
// Area averaging for 4:2:0's chroma: on the bench frames it beat bicubic by 0.16 dB PSNR
// after x264 (and lanczos, spline, bilinear and gauss, bicubic).
static inline int kinetic_sws_flags(void) { return SWS_AREA | SWS_BITEXACT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT; }

// sws_scale from one packed plane (RGBA or BGR0) straight into `frame`'s own buffers
// (av_frame_get_buffer), then zeroes what the rows leave: each row's padding past the
// width and the buffers' tails. av_frame_get_buffer leaves them uninitialized and
// encoders' SIMD reads them (x264 copies rows rounded up to 16 or 32 bytes), so two
// encodes of the same frames would differ. Returns the rows converted, or -1.
static inline int kinetic_sws_scale_into_frame(const struct kinetic_ffmpeg *_Nonnull f, struct SwsContext *c, const uint8_t *src, int stride, AVFrame *frame) {
    const uint8_t *in[4] = { src, NULL, NULL, NULL };
    const int strides[4] = { stride, 0, 0, 0 };
    int rows = f->sws_scale(c, in, strides, 0, frame->height, frame->data, frame->linesize);
    if (rows != frame->height) return rows;
    int widths[4] = { 0 };
    if (f->av_image_fill_linesizes(widths, frame->format, frame->width) < 0) return -1;
    const AVPixFmtDescriptor *d = f->av_pix_fmt_desc_get(frame->format);
    if (!d) return -1;
    for (int p = 0; p < 4 && frame->data[p]; p++) {
        int h = (p == 1 || p == 2) ? AV_CEIL_RSHIFT(frame->height, d->log2_chroma_h) : frame->height;
        int line = frame->linesize[p];
        if (line < widths[p]) return -1;
        for (int y = 0; y < h; y++) memset(frame->data[p] + (ptrdiff_t)y * line + widths[p], 0, line - widths[p]);
        // The rest of the buffer holding this plane past its last row, up to the next
        // plane in it, if any, or the buffer's end.
        uint8_t *end = frame->data[p] + (ptrdiff_t)h * line;
        for (int i = 0; i < AV_NUM_DATA_POINTERS && frame->buf[i]; i++) {
            uint8_t *start = frame->buf[i]->data, *stop = start + frame->buf[i]->size;
            if (end < start || end > stop) continue;
            for (int q = 0; q < 4 && frame->data[q]; q++)
                if (frame->data[q] >= end && frame->data[q] < stop) stop = frame->data[q];
            memset(end, 0, stop - end);
        }
    }
    return rows;
}
