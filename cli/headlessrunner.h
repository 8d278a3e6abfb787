#pragma once

#include "commandline.h"
#include "frontier/crawljournal.h"
#include "input/inputsource.h"

#include <QString>

namespace crawl {

enum ExitCode : int { ExitOk = 0, ExitOutputFailed = 1, ExitUsage = 2, ExitInterrupted = 130 };

// Runs one crawl without a window: result rows stream to the CSV as URLs finish (a regular file through
// a temporary file renamed at the end), a progress line goes to stderr about once a second, a summary at
// the end. A first SIGINT/SIGTERM/SIGHUP cancels and still writes every row; a second exits at once.
// Needs a QCoreApplication; returns the exit code: 2 also when reading the input failed part way.
// With options.store the crawl is journaled in that new file; with options.resume the journaled crawl
// continues (`input` is then ignored: the stored list is read) and the CSV gets the rows committed before
// the interruption first, so it holds one row per input line for the whole crawl.
int runHeadless(const CommandLineOptions &options, const InputSource &input,
                const QString &defaultOutput = {});

} // namespace crawl
