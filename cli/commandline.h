#pragma once

#include "model/crawllimits.h"
#include "model/crawlquality.h"
#include "model/fetchpolicy.h"

#include <QString>
#include <QStringList>

namespace crawl {

// Everything the command line can ask for. Parsing is separate from running so it can be tested, and
// so the window and the headless runner read the same flags.
struct CommandLineOptions {
    enum class Mode : quint8 { Window, Headless, Export, Version, Help };
    Mode mode = Mode::Window;
    bool demo = false;
    QString input;               // path or "-" (headless)
    QString output;              // path or "-"; empty = stdout (demo: crawlscope-demo.csv)
    QString summaryJson;         // path or empty
    QString fileToOpen;          // window mode: a list to open
    bool quiet = false;          // no progress lines
    QString store;               // --store: journal a new crawl in this file
    QString resume;              // --resume: continue the crawl journaled in this file
    QString exportStore;         // --export: write a journaled crawl's rows, no crawling
    bool syncFull = false;       // --sync full
    bool inputChangedOk = false; // --input-changed ok: resume although the list file changed
    // The crawl's own flags in canonical form ("--name=value"), stored with --store so --resume can
    // rebuild them (outputs, --input and the journal flags themselves are not part of it).
    QStringList crawlArguments;
    QStringList explicitFlags; // flags given on the command line (so --demo can pick its own defaults)
    // --cluster (docs/cluster.md): the Redis URL as given (parsed by the runner: the password may come
    // from the environment), the crawl's name, and which cluster job.
    QString clusterUrl;
    QString crawlName;
    bool clusterWorker = false; // --worker
    bool clusterSet = false;    // --cluster-set
    int fetchThreads = 2;
    CrawlLimits limits;
    FetchPolicy policy;
    CrawlQuality quality; // robots.txt (obeyed by default here), scope and acceptance checks
};

struct CommandLineParse {
    bool ok = false;
    CommandLineOptions options;
    QString error; // one sentence naming the flag and the problem; exit code 2
};

CommandLineParse parseCommandLine(const QStringList &arguments); // arguments[0] is the program
// For --resume: the stored crawl flags, then the ones given now (later wins; a repeatable flag given now
// replaces all its stored values). arguments[0] is the program. A stored entry that is not a crawl flag
// in canonical form (--output, --summary-json, a bare value...) is left out and listed in *ignored.
QStringList resumeArguments(const QStringList &arguments, const QStringList &storedCrawlArguments,
                            QStringList *ignored = nullptr);
// Whether a flag (name without dashes) belongs to the crawl itself and so is stored with it.
bool isCrawlFlag(const QString &name);
// The crawl flags that may be written to a crawl file: credential headers (isCredentialHeader) are left
// out and their names listed in *withheldHeaders, so --resume can ask for them again.
QStringList storableCrawlArguments(const QStringList &crawlArguments, QStringList *withheldHeaders);
// Settings key of a crawl file: names of the credential headers the crawl had but did not store.
inline constexpr char kWithheldHeadersKey[] = "cli.withheld_headers";
QString commandLineHelp();
QString versionText();

// "example.com=1/2000" -> key(s) and override. A host without a port applies to ports 80 and 443.
bool parseHostLimit(const QString &text, CrawlLimits *limits, QString *error);
bool parseHeader(const QString &text, FetchPolicy *policy, QString *error);

} // namespace crawl
