#pragma once

#include "commandline.h"

namespace demo {

// `crawlscope --demo --headless`: starts the built-in demo site on loopback, prints its hosts to stderr
// and crawls it with the demo's settings (flags given explicitly still win), writing
// crawlscope-demo.csv unless --output says otherwise. Needs a QCoreApplication; returns the exit code.
int runHeadlessDemo(crawl::CommandLineOptions options);

} // namespace demo
