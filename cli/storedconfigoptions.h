#pragma once

#include "commandline.h"
#include "store/storedcrawlconfig.h"

namespace crawl {

// `--headless --resume CRAWL.db` of a crawl that kept no command-line flags (one started in the window):
// the options it runs with are the crawl's own stored settings (limits, fetch policy, robots.txt, scope
// and acceptance), each overridden by its flag where that flag is given now, as a --store crawl's stored
// flags are. `given` is the parse of the command line as typed (its explicitFlags say what was given).
// Redirect safety takes the stricter of the two, as the window's Resume does: the file may come from
// anyone. Credential headers are never stored, so only the ones given now are sent.
CommandLineOptions withStoredCrawlConfig(const CommandLineOptions &given, const StoredCrawlConfig &stored);

} // namespace crawl
