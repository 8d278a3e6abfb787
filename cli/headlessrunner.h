#pragma once

#include "commandline.h"
#include "input/inputsource.h"

#include <QString>

namespace crawl {

enum ExitCode : int { ExitOk = 0, ExitOutputFailed = 1, ExitUsage = 2, ExitInterrupted = 130 };

// Runs one crawl without a window: result rows stream to the CSV as URLs finish, a progress line goes to
// stderr about once a second, a summary at the end. Needs a QCoreApplication; returns the exit code.
int runHeadless(const CommandLineOptions &options, const InputSource &input,
                const QString &defaultOutput = {});

} // namespace crawl
