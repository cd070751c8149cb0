#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with the ICU that Foundation
// bundles. Nothing here uses libxml2's ICU converters (their struct is only pointed to),
// so the system ICU headers are left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
