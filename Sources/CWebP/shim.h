#include <webp/encode.h>
#include <webp/mux.h>
