// The few functions of ICU's C regex API (uregex.h) that Switchyard calls directly on Linux. Swift's toolchain ships
// ICU as lib_FoundationICU.so (the library Foundation's NSRegularExpression runs on) with every symbol prefixed
// `swift_`; the declarations below match ICU 76's uregex.h.
#ifndef SWITCHYARD_CICU_SHIM_H
#define SWITCHYARD_CICU_SHIM_H

#include <stdint.h>

typedef struct URegularExpression URegularExpression;
typedef uint16_t UChar;
typedef int8_t UBool;
typedef int32_t UErrorCode;  // U_ZERO_ERROR is 0; failures are > 0, warnings < 0.

/// Where ICU found a pattern's error (uparseerr.h): `offset` in UTF-16 units from the start of the pattern.
typedef struct UParseError {
    int32_t line;
    int32_t offset;
    UChar preContext[16];
    UChar postContext[16];
} UParseError;

/// Called every few thousand steps of a match; returning 0 stops it with U_REGEX_STOPPED_BY_CALLER.
typedef UBool URegexMatchCallback(const void *context, int32_t steps);

URegularExpression *swift_uregex_open(const UChar *pattern, int32_t patternLength, uint32_t flags,
                                      UParseError *parseError, UErrorCode *status);
URegularExpression *swift_uregex_clone(const URegularExpression *regexp, UErrorCode *status);
void swift_uregex_close(URegularExpression *regexp);
int32_t swift_uregex_groupCount(URegularExpression *regexp, UErrorCode *status);
void swift_uregex_setText(URegularExpression *regexp, const UChar *text, int32_t textLength, UErrorCode *status);
UBool swift_uregex_findNext(URegularExpression *regexp, UErrorCode *status);
int32_t swift_uregex_start(URegularExpression *regexp, int32_t groupNum, UErrorCode *status);
int32_t swift_uregex_end(URegularExpression *regexp, int32_t groupNum, UErrorCode *status);
void swift_uregex_setMatchCallback(URegularExpression *regexp, URegexMatchCallback *callback, const void *context,
                                   UErrorCode *status);

#endif
