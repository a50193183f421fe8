/* nvtx.c - NVTX ranges named after the points (nvtx.h). */
#include "measure/nvtx.h"

#ifdef GB_HAVE_NVTX
/* The toolkit's header declares functions with "()" and defines static ones
 * a translation unit may not use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wshadow"
#include <nvtx3/nvToolsExt.h>
#pragma GCC diagnostic pop

void gb_nvtx_push(const char *name)
{
    nvtxRangePushA(name);
}

void gb_nvtx_pop(void)
{
    nvtxRangePop();
}

int gb_nvtx_enabled(void)
{
    return 1;
}
#else
void gb_nvtx_push(const char *name)
{
    (void)name;
}

void gb_nvtx_pop(void)
{
}

int gb_nvtx_enabled(void)
{
    return 0;
}
#endif
