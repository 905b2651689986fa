#ifndef SWITCHYARD_CJAVASCRIPTCORE_SHIM_H
#define SWITCHYARD_CJAVASCRIPTCORE_SHIM_H

// Debian's libjavascriptcoregtk-4.1-dev: the JavaScriptCore C API, identical to Apple's.
#include <JavaScriptCore/JavaScript.h>

// Exported by the library (JSContextRefPrivate.h on Apple platforms) but not declared in Debian's
// public headers. The callback fires on the thread running the script once the CPU-time limit passes;
// returning true terminates the script. Switchyard's watchdog re-arms it to enforce wall-clock limits.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                         JSShouldTerminateCallback callback, void *context);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

#endif
