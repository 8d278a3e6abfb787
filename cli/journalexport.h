#pragma once

#include <QString>

namespace crawl {

// `crawlscope --export CRAWL.db --output FILE.csv`: the journaled crawl's rows in input order, one per
// input line (unfinished URLs as `cancelled`), without crawling. The journal is opened read-only, so an
// export works on a crawl that another process is not running and never changes it. Returns an exit code.
int exportJournal(const QString &storePath, const QString &csvPath);

} // namespace crawl
