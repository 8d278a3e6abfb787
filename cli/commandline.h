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
// replaces all its stored values). arguments[0] is the program.
QStringList resumeArguments(const QStringList &arguments, const QStringList &storedCrawlArguments);
QString commandLineHelp();
QString versionText();

// "example.com=1/2000" -> key(s) and override. A host without a port applies to ports 80 and 443.
bool parseHostLimit(const QString &text, CrawlLimits *limits, QString *error);
bool parseHeader(const QString &text, FetchPolicy *policy, QString *error);

} // namespace crawl
