#pragma once

#include "commandline.h"

// The window: opens `options.fileToOpen` when given, with the limit flags typed on the command line
// winning over the saved limits; for `options.demo` starts the built-in demo site and crawls it with the
// demo's settings (flags typed win there too). Returns the application's exit code.
int runWindowMode(int argc, char **argv, const crawl::CommandLineOptions &options);
