/* clang_dl.c - libclang opened at run time, its entry points in one table
 * filled once (the way gpu/cuda_api.c opens the driver). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "analyze_internal.h"

#ifdef GB_HAVE_CLANG_C
static struct gb_clang gb_cl;
static int gb_cl_state;          /* 0 not tried, 1 open, -1 failed */
static const char *gb_cl_name;
static char gb_cl_err[256];

static const char *const gb_cl_libs[] = {"libclang-14.so.1", "libclang.so.1", "libclang.so"};

#define GB_SYM(field, sym)                                  \
    do {                                                    \
        *(void **)(&gb_cl.field) = dlsym(h, sym);           \
        if (!gb_cl.field) {                                 \
            missing = sym;                                  \
            goto fail;                                      \
        }                                                   \
    } while (0)

static int gb_clang_load(void *h)
{
    const char *missing = NULL;
    GB_SYM(createIndex, "clang_createIndex");
    GB_SYM(disposeIndex, "clang_disposeIndex");
    GB_SYM(parseTranslationUnit2, "clang_parseTranslationUnit2");
    GB_SYM(disposeTranslationUnit, "clang_disposeTranslationUnit");
    GB_SYM(getTranslationUnitCursor, "clang_getTranslationUnitCursor");
    GB_SYM(visitChildren, "clang_visitChildren");
    GB_SYM(getCursorKind, "clang_getCursorKind");
    GB_SYM(getCursorSpelling, "clang_getCursorSpelling");
    GB_SYM(getCString, "clang_getCString");
    GB_SYM(disposeString, "clang_disposeString");
    GB_SYM(getCursorType, "clang_getCursorType");
    GB_SYM(Type_getSizeOf, "clang_Type_getSizeOf");
    GB_SYM(getPointeeType, "clang_getPointeeType");
    GB_SYM(getCanonicalType, "clang_getCanonicalType");
    GB_SYM(getArrayElementType, "clang_getArrayElementType");
    GB_SYM(getCursorReferenced, "clang_getCursorReferenced");
    GB_SYM(getCursorExtent, "clang_getCursorExtent");
    GB_SYM(getRangeStart, "clang_getRangeStart");
    GB_SYM(getRangeEnd, "clang_getRangeEnd");
    GB_SYM(getExpansionLocation, "clang_getExpansionLocation");
    GB_SYM(tokenize, "clang_tokenize");
    GB_SYM(disposeTokens, "clang_disposeTokens");
    GB_SYM(getTokenSpelling, "clang_getTokenSpelling");
    GB_SYM(getTokenLocation, "clang_getTokenLocation");
    GB_SYM(getNumDiagnostics, "clang_getNumDiagnostics");
    GB_SYM(getDiagnostic, "clang_getDiagnostic");
    GB_SYM(getDiagnosticSeverity, "clang_getDiagnosticSeverity");
    GB_SYM(formatDiagnostic, "clang_formatDiagnostic");
    GB_SYM(disposeDiagnostic, "clang_disposeDiagnostic");
    GB_SYM(Location_isFromMainFile, "clang_Location_isFromMainFile");
    GB_SYM(isCursorDefinition, "clang_isCursorDefinition");
    GB_SYM(getCursorSemanticParent, "clang_getCursorSemanticParent");
    GB_SYM(getCursorDefinition, "clang_getCursorDefinition");
    GB_SYM(equalCursors, "clang_equalCursors");
    GB_SYM(Cursor_getNumArguments, "clang_Cursor_getNumArguments");
    GB_SYM(Cursor_getArgument, "clang_Cursor_getArgument");
    GB_SYM(Cursor_isNull, "clang_Cursor_isNull");
    GB_SYM(getNullCursor, "clang_getNullCursor");
    GB_SYM(getSpecializedCursorTemplate, "clang_getSpecializedCursorTemplate");
    GB_SYM(isExpression, "clang_isExpression");
    return 0;
fail:
    snprintf(gb_cl_err, sizeof gb_cl_err, "libclang lacks %s", missing);
    return -1;
}

const struct gb_clang *gb_clang_open(const char **name)
{
    if (gb_cl_state == 0) {
        gb_cl_state = -1;
        snprintf(gb_cl_err, sizeof gb_cl_err, "libclang is not installed");
        for (size_t i = 0; i < sizeof gb_cl_libs / sizeof gb_cl_libs[0]; i++) {
            void *h = dlopen(gb_cl_libs[i], RTLD_NOW | RTLD_LOCAL);
            if (!h)
                continue;
            if (gb_clang_load(h) == 0) {
                gb_cl_state = 1;
                gb_cl_name = gb_cl_libs[i];
                break;
            }
            dlclose(h);
        }
    }
    if (gb_cl_state < 0) {
        gb_error_set(GB_ERR_UNSUPPORTED, "cannot analyse kernel source: %s (install it with "
                     "apt-get install libclang1-14)", gb_cl_err);
        return NULL;
    }
    if (name)
        *name = gb_cl_name;
    return &gb_cl;
}
#endif

int gb_analysis_available(char *buf, size_t n)
{
#ifdef GB_HAVE_CLANG_C
    const char *name = NULL;
    if (!gb_clang_open(&name))
        return 0;
    if (buf && n)
        snprintf(buf, n, "%s", name);
    return 1;
#else
    if (buf && n)
        buf[0] = '\0';
    return 0;
#endif
}
