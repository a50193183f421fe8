/* analyze_internal.h - libclang's entry points, opened at run time, and
 * what the kernel scan shares with its helpers. */
#ifndef GB_ANALYZE_INTERNAL_H
#define GB_ANALYZE_INTERNAL_H

#include "gpubound/analyze.h"

#ifdef GB_HAVE_CLANG_C
#include <clang-c/Index.h>

/* The libclang functions the scan uses, filled once by gb_clang_open. */
struct gb_clang {
    CXIndex (*createIndex)(int, int);
    void (*disposeIndex)(CXIndex);
    enum CXErrorCode (*parseTranslationUnit2)(CXIndex, const char *, const char *const *, int,
                                              struct CXUnsavedFile *, unsigned, unsigned,
                                              CXTranslationUnit *);
    void (*disposeTranslationUnit)(CXTranslationUnit);
    CXCursor (*getTranslationUnitCursor)(CXTranslationUnit);
    unsigned (*visitChildren)(CXCursor, CXCursorVisitor, CXClientData);
    enum CXCursorKind (*getCursorKind)(CXCursor);
    CXString (*getCursorSpelling)(CXCursor);
    const char *(*getCString)(CXString);
    void (*disposeString)(CXString);
    CXType (*getCursorType)(CXCursor);
    long long (*Type_getSizeOf)(CXType);
    CXType (*getPointeeType)(CXType);
    CXType (*getCanonicalType)(CXType);
    CXType (*getArrayElementType)(CXType);
    CXCursor (*getCursorReferenced)(CXCursor);
    CXSourceRange (*getCursorExtent)(CXCursor);
    CXSourceLocation (*getRangeStart)(CXSourceRange);
    CXSourceLocation (*getRangeEnd)(CXSourceRange);
    void (*getExpansionLocation)(CXSourceLocation, CXFile *, unsigned *, unsigned *, unsigned *);
    void (*tokenize)(CXTranslationUnit, CXSourceRange, CXToken **, unsigned *);
    void (*disposeTokens)(CXTranslationUnit, CXToken *, unsigned);
    CXString (*getTokenSpelling)(CXTranslationUnit, CXToken);
    CXSourceLocation (*getTokenLocation)(CXTranslationUnit, CXToken);
    unsigned (*getNumDiagnostics)(CXTranslationUnit);
    CXDiagnostic (*getDiagnostic)(CXTranslationUnit, unsigned);
    enum CXDiagnosticSeverity (*getDiagnosticSeverity)(CXDiagnostic);
    CXString (*formatDiagnostic)(CXDiagnostic, unsigned);
    void (*disposeDiagnostic)(CXDiagnostic);
    int (*Location_isFromMainFile)(CXSourceLocation);
    unsigned (*isCursorDefinition)(CXCursor);
    CXCursor (*getCursorSemanticParent)(CXCursor);
    unsigned (*isExpression)(enum CXCursorKind);
    CXCursor (*getCursorDefinition)(CXCursor);
    unsigned (*equalCursors)(CXCursor, CXCursor);
    int (*Cursor_getNumArguments)(CXCursor);
    CXCursor (*Cursor_getArgument)(CXCursor, unsigned);
    int (*Cursor_isNull)(CXCursor);
    CXCursor (*getNullCursor)(void);
    CXCursor (*getSpecializedCursorTemplate)(CXCursor);
};

/* The table, or NULL with gb_error_set(GB_ERR_UNSUPPORTED, ...) when
 * libclang cannot be opened. The name of the library opened in *name. */
const struct gb_clang *gb_clang_open(const char **name);
#endif

/* Appends a copy of `s` to a growing list of strings. */
enum gb_status gb_an_strs_add(char ***v, size_t *n, const char *s);

/* The trip count of a for loop from its three header parts, as an
 * expression in C syntax ("" and a reason in `why` when undecided). */
int gb_an_loop_trips(const char *init, const char *cond, const char *inc, char *trips, size_t n,
                     char *why, size_t wn);

/* Whether a for header is `v = 0; v < B; v++` (or ++v, v += 1): 0 with the
 * variable and the bound B, else -1. */
int gb_an_loop_unit(const char *init, const char *cond, const char *inc, char *var, size_t vn,
                    char *bound, size_t bn);

/* The elements of one vector access, as an expression: accesses to
 * elements 0, 1, .. of rows of `row` elements of `elem_bytes` bytes, made
 * by the iterations 0 .. `trips`-1 of a fully unrolled loop, issued v at a
 * time, v the largest power of two with v * elem_bytes <= 16 that divides
 * both (a vector access of 8 or 16 bytes needs that alignment). "" when
 * no vector is wider than one element. */
void gb_an_vector_expr(const char *row, const char *trips, int elem_bytes, char *buf, size_t n);

/* The built-in header of CUDA names the parse includes first. */
extern const char gb_an_cuda_header[];

#endif
