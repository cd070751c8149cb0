#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// Function-like macros and flag expressions Swift cannot import.
static inline int kinetic_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int kinetic_averror_eof(void) { return AVERROR_EOF; }
static inline int kinetic_codec_flag_bitexact(void) { return AV_CODEC_FLAG_BITEXACT; }
static inline int kinetic_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int kinetic_format_flag_bitexact(void) { return AVFMT_FLAG_BITEXACT; }
static inline int kinetic_format_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int kinetic_format_nofile(void) { return AVFMT_NOFILE; }
static inline int kinetic_sws_flags(void) { return SWS_BICUBIC | SWS_BITEXACT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT; }

// sws_scale from one packed plane (RGBA or BGR0) into a frame's planes.
static inline int kinetic_sws_scale_packed(struct SwsContext *c, const uint8_t *src, int stride,
                                           int height, AVFrame *dst) {
    const uint8_t *planes[4] = { src, NULL, NULL, NULL };
    const int strides[4] = { stride, 0, 0, 0 };
    return sws_scale(c, planes, strides, 0, height, dst->data, dst->linesize);
}
