#include "commandline.h"

#include "cluster/clustertypes.h"
#include "clusterflags.h"
#include "model/settingranges.h"
#include "policy/redirectsafety.h"

#include <QCommandLineParser>
#include <QFile>
#include <QUrl>

#include <limits>
#include <type_traits>
#include <utility>

namespace crawl {

namespace {

struct Flag {
    const char *name;
    const char *valueName; // nullptr for switches
    const char *help;      // with its default
};

// The one list of flags: the parser, --help and the man-page check all come from it.
const Flag kFlags[] = {
    {"headless", nullptr, "Run without a window (needs --input, or --demo)."},
    {"demo", nullptr, "Start the built-in demo site on loopback and crawl it."},
    {"input", "FILE|-", "URL list: text (one per line) or CSV with a url column; - reads stdin."},
    {"output", "FILE.csv|-", "Where result rows go (default: stdout; --demo: crawlscope-demo.csv)."},
    {"summary-json", "FILE|-", "Write the end-of-crawl summary as JSON (- for standard output)."},
    {"concurrency", "N", "Global requests in flight (default 16)."},
    {"per-host", "N", "Requests in flight per host (default 2)."},
    {"interval-ms", "MS", "Minimum time between request starts on one host (default 500)."},
    {"jitter", "F", "Random extra pacing, 0-1: each gap is interval x (1 + U(0,F)) (default 0)."},
    {"max-rate", "R", "Global request starts per second, 0 = off (default 0)."},
    {"host-limit", "HOST=N[/MS]", "Per-host override of in-flight and interval (repeatable)."},
    {"retries", "N", "Retries after the first attempt (default 3)."},
    {"backoff-ms", "MS", "Backoff base: base x 2^(attempt-1), jittered (default 500)."},
    {"max-retry-after", "S", "Longest Retry-After honoured, in seconds (default 60)."},
    {"max-url-time", "S", "No new attempt after this long on one URL (default 600)."},
    {"timeout", "S", "Total time per request, in seconds (default 30)."},
    {"connect-timeout", "S", "Time to connect, in seconds (default 10)."},
    {"idle-timeout", "S", "Longest time without receiving data, in seconds (default 15)."},
    {"max-bytes", "N", "Largest body accepted, in bytes (default 10485760)."},
    {"max-redirects", "N", "Redirect hops followed per attempt (default 10)."},
    {"user-agent", "TEXT", "User-Agent header (default: Crawlscope/<version> ...)."},
    {"header", "\"Name: value\"",
     "Extra request header (repeatable). A --worker needs the credential headers (Authorization, Cookie...) "
     "its coordinator was given: they are not stored in Redis."},
    {"send-credentials-cross-origin", nullptr,
     "Keep Authorization, Cookie and other secret headers on a redirect to another origin."},
    {"no-private-redirects", nullptr,
     "Refuse a redirect from a public host to a private or loopback address."},
    {"adaptive", nullptr,
     "Adapt each host's in-flight limit and interval to what it tolerates (AIMD), with --per-host, "
     "--interval-ms and --host-limit as ceilings and 1 in flight as the floor (default off)."},
    {"no-adaptive", nullptr,
     "The user's limits as they are (the default): switches --adaptive off with --resume or --cluster-set."},
    {"breaker-window", "N", "Circuit breaker: judge a host by its last N attempts (default 20)."},
    {"breaker-threshold", "F",
     "Trip a host when this share (0-1) of a full window failed: timeouts, network errors, 5xx, 429 "
     "(default 0.8)."},
    {"breaker-cooldown", "S",
     "Seconds a tripped host waits before one probe request; doubles on each trip, to 16x (default 60)."},
    {"breaker-give-up", "S",
     "Seconds tripped after which a host's remaining URLs end as skipped (default 1800)."},
    {"no-breaker", nullptr, "Never trip a host, however many of its requests fail."},
    {"breaker", nullptr,
     "Trip hosts whose requests keep failing (the default): switches --no-breaker off with --resume or "
     "--cluster-set."},
    {"robots", "obey|ignore|report",
     "robots.txt: obey it (default), ignore it (not fetched), or report (fetch anyway, mark the rows)."},
    {"robots-agent", "TOKEN", "Product token matched against robots.txt groups (default crawlscope)."},
    {"ignore-crawl-delay", nullptr, "Do not let robots.txt Crawl-delay raise a host's interval."},
    {"include", "REGEX", "Crawl only URLs matching it (repeatable: any may match); others end as excluded."},
    {"exclude", "REGEX", "URLs matching it end as excluded, never requested (repeatable)."},
    {"allow-hosts", "FILE",
     "Crawl only these hosts: one host, host:port or *.domain per line; others end as excluded."},
    {"expect-status", "LIST", "Accepted statuses, e.g. 200-299,304 (default 200-299)."},
    {"expect-type", "LIST", "Accepted content types, e.g. text/html,application/json (default any)."},
    {"expect-text", "TEXT", "Accept a page only if this text is in its first 256 KiB."},
    {"expect-regex", "RE", "Accept a page only if this regular expression matches its first 256 KiB."},
    {"expect-title", nullptr, "Accept a page only if it has a non-empty HTML title."},
    {"min-bytes", "N", "Accept a page only if its body has at least N bytes (default 0)."},
    {"soft-404", "off|report|reject",
     "A 2xx whose title or main heading says not found / error: report it (default), reject it, or off."},
    {"soft-404-pattern", "RE",
     "What a soft-404 title or heading matches (case-insensitive; default: not found, 404, error, ...)."},
    {"threads", "N", "Fetch threads; hosts are spread over them (default 2)."},
    {"quiet", nullptr, "No progress lines on stderr."},
    {"store", "FILE.db",
     "Journal the crawl in this new file: every URL's state and result is committed there, so a crash, "
     "kill or power cut loses nothing committed and --resume continues it. On a --cluster coordinator: "
     "the rows it collects (--resume NAME --store FILE.db reopens it)."},
    {"resume", "FILE.db",
     "Continue the crawl journaled in FILE.db with its list and settings (flags given now override "
     "them); --output gets one row per input line for the whole crawl. With --cluster URL --input FILE "
     "the value is a shared crawl's name: continue coordinating it (docs/cluster.md)."},
    {"export", "FILE.db",
     "Write the rows of a journaled crawl to --output (default stdout), without crawling."},
    {"sync", "normal|full",
     "Journal durability: normal survives a crash of the process; full also survives a power loss, at "
     "a cost per commit (default normal)."},
    {"cluster", "redis://HOST:PORT/DB",
     "A shared crawl in Redis (docs/cluster.md): with --input and --crawl, coordinate it (create, feed, "
     "collect the rows); with --worker, fetch for it. The password comes from the URL or "
     "CRAWLSCOPE_REDIS_PASSWORD and is never printed."},
    {"crawl", "NAME", "The shared crawl's name (letters, digits, '.', '_', '-')."},
    {"worker", nullptr,
     "With --headless --cluster: take URLs from the crawl (--crawl, or any unfinished one) and fetch them "
     "under the shared limits, --concurrency at a time, until it is finished."},
    {"cluster-set", nullptr,
     "With --cluster and --crawl: change the shared crawl's limits (--concurrency, --per-host, "
     "--interval-ms, --host-limit, --retries) for every worker, then exit."},
    {"input-changed", "refuse|ok",
     "With --resume: refuse (default, exit 2) or accept a list file that changed since the crawl started "
     "(its unread lines are read by line number from the file as it is now)."},
    {"version", nullptr, "Print the version and exit."},
    {"help", nullptr, "Print this help and exit."},
};

// A header value with a control character (CR/LF above all) could end the header and start another.
bool hasControlCharacter(const QString &value) {
    for (const QChar c : value) {
        if ((c.unicode() < 0x20 && c != QLatin1Char('\t')) || c.unicode() == 0x7f)
            return true;
    }
    return false;
}

QString flagName(const Flag &flag) {
    return QString::fromLatin1(flag.name);
}

// Reads a numeric flag if it was given; leaves *out alone otherwise. Integers and reals differ only in
// how the text is parsed and how the error names the expected kind of number.
template <typename Number>
bool readNumber(const QCommandLineParser &parser, const char *name, Number min, Number max, Number *out,
                QString *error) {
    const QString key = QString::fromLatin1(name);
    if (!parser.isSet(key))
        return true;
    const QString text = parser.value(key).trimmed();
    bool ok = false;
    Number value{};
    if constexpr (std::is_integral_v<Number>)
        value = text.toLongLong(&ok);
    else
        value = text.toDouble(&ok);
    // Written so NaN fails too (every comparison with NaN is false).
    if (!ok || !(value >= min && value <= max)) {
        *error = QStringLiteral("--%1 must be %2 from %3 to %4 (got \"%5\")")
                     .arg(key, std::is_integral_v<Number> ? QStringLiteral("a whole number")
                                                          : QStringLiteral("a number"))
                     .arg(min)
                     .arg(max)
                     .arg(text);
        return false;
    }
    *out = value;
    return true;
}

// robots.txt, scope and acceptance flags (issue 13); errors name the flag and what is wrong.
bool parseQualityOptions(const QCommandLineParser &parser, CrawlQuality *quality, QString *error) {
    const auto isSet = [&](const char *name) { return parser.isSet(QString::fromLatin1(name)); };
    const auto value = [&](const char *name) { return parser.value(QString::fromLatin1(name)); };
    quality->robots = RobotsMode::Obey; // the command line obeys robots.txt unless told otherwise
    if (isSet("robots")) {
        const auto mode = robotsModeFromName(value("robots").trimmed().toLower());
        if (!mode) {
            *error =
                QStringLiteral("--robots must be obey, ignore or report (got \"%1\")").arg(value("robots"));
            return false;
        }
        quality->robots = *mode;
    }
    if (isSet("robots-agent")) {
        const QString token = value("robots-agent").trimmed();
        // RFC 9309 section 2.2.1: a product token is letters, '_' and '-'.
        bool valid = !token.isEmpty() && token.size() <= 100;
        for (const QChar c : token)
            valid = valid &&
                    ((c.isLetter() && c.unicode() < 128) || c == QLatin1Char('_') || c == QLatin1Char('-'));
        if (!valid) {
            *error =
                QStringLiteral("--robots-agent must be a product token of letters, '_' and '-' (got \"%1\")")
                    .arg(value("robots-agent"));
            return false;
        }
        quality->robotsAgent = token.toLatin1();
    }
    quality->ignoreCrawlDelay = isSet("ignore-crawl-delay");

    for (const QString &pattern : parser.values(QStringLiteral("include"))) {
        if (*error = quality->scope.addInclude(pattern); !error->isEmpty())
            return false;
    }
    for (const QString &pattern : parser.values(QStringLiteral("exclude"))) {
        if (*error = quality->scope.addExclude(pattern); !error->isEmpty())
            return false;
    }
    if (isSet("allow-hosts")) {
        const QString path = value("allow-hosts");
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("--allow-hosts: cannot read %1: %2").arg(path, file.errorString());
            return false;
        }
        // A host list is small; a huge file is a mistake (or /dev/zero), not a list.
        const QByteArray content = file.read(16 * 1024 * 1024 + 1);
        if (content.size() > 16 * 1024 * 1024) {
            *error = QStringLiteral("--allow-hosts: %1 is larger than 16 MiB").arg(path);
            return false;
        }
        const QStringList errors = quality->scope.setAllowedHosts(content, path);
        if (!errors.isEmpty()) {
            *error = QStringLiteral("--allow-hosts %1: %2").arg(path, errors.first());
            return false;
        }
        if (quality->scope.allowedHostCount() == 0) {
            *error =
                QStringLiteral("--allow-hosts: %1 lists no host (every URL would be excluded)").arg(path);
            return false;
        }
    }

    AcceptanceCriteria &criteria = quality->acceptance;
    if (isSet("expect-status")) {
        QString why;
        const auto ranges = parseStatusList(value("expect-status"), &why);
        if (!ranges) {
            *error = QStringLiteral("--expect-status: %1").arg(why);
            return false;
        }
        criteria.statuses = *ranges;
    }
    if (isSet("expect-type")) {
        QString why;
        const auto types = parseContentTypeList(value("expect-type"), &why);
        if (!types) {
            *error = QStringLiteral("--expect-type: %1").arg(why);
            return false;
        }
        criteria.contentTypes = *types;
    }
    if (isSet("expect-text")) {
        criteria.expectedText = value("expect-text");
        if (criteria.expectedText.isEmpty()) {
            *error = QStringLiteral("--expect-text must not be empty");
            return false;
        }
    }
    const auto compile = [&](const char *flag, QRegularExpression::PatternOptions options,
                             QRegularExpression *into) {
        const QString pattern = value(flag);
        QRegularExpression expression(pattern, options);
        if (pattern.isEmpty() || !expression.isValid()) {
            *error = QStringLiteral("--%1 \"%2\" is not a valid regular expression: %3")
                         .arg(QString::fromLatin1(flag), pattern,
                              pattern.isEmpty() ? QStringLiteral("empty") : expression.errorString());
            return false;
        }
        expression.optimize();
        *into = expression;
        return true;
    };
    if (isSet("expect-regex") &&
        !compile("expect-regex", QRegularExpression::UseUnicodePropertiesOption, &criteria.expectedRegex))
        return false;
    criteria.expectTitle = isSet("expect-title");
    if (!readNumber<qint64>(parser, "min-bytes", 0, qint64(1) << 40, &criteria.minBytes, error))
        return false;
    if (isSet("soft-404")) {
        const QString mode = value("soft-404").trimmed().toLower();
        if (mode == QLatin1String("off"))
            criteria.soft404 = Soft404Mode::Off;
        else if (mode == QLatin1String("report"))
            criteria.soft404 = Soft404Mode::Report;
        else if (mode == QLatin1String("reject"))
            criteria.soft404 = Soft404Mode::Reject;
        else {
            *error = QStringLiteral("--soft-404 must be off, report or reject (got \"%1\")")
                         .arg(value("soft-404"));
            return false;
        }
    }
    if (isSet("soft-404-pattern") &&
        !compile("soft-404-pattern",
                 QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption,
                 &criteria.soft404Pattern))
        return false;
    return true;
}

// --cluster, --crawl, --worker, --cluster-set: which cluster job, and the flags that cannot go with it.
bool parseClusterOptions(const QCommandLineParser &parser, CommandLineOptions *o, QString *error) {
    o->clusterUrl = parser.value(QStringLiteral("cluster"));
    o->crawlName = parser.value(QStringLiteral("crawl"));
    o->clusterWorker = parser.isSet(QStringLiteral("worker"));
    o->clusterSet = parser.isSet(QStringLiteral("cluster-set"));
    const bool cluster = parser.isSet(QStringLiteral("cluster"));
    if (!cluster) {
        if (o->clusterWorker || o->clusterSet || parser.isSet(QStringLiteral("crawl"))) {
            *error =
                QStringLiteral("--worker, --cluster-set and --crawl need --cluster redis://HOST:PORT/DB");
            return false;
        }
        return true;
    }
    if (o->clusterWorker && o->clusterSet) {
        *error = QStringLiteral("--worker and --cluster-set are separate jobs: give one of them");
        return false;
    }
    // --cluster --resume NAME: a coordinator continues the shared crawl NAME (docs/cluster.md).
    const bool resumeShared = !o->resume.isEmpty() && !o->clusterWorker && !o->clusterSet;
    // A coordinator may also write its rows into a crawl file (--store); workers and --cluster-set write
    // none.
    const bool storeRefused = !o->store.isEmpty() && (o->clusterWorker || o->clusterSet);
    if (storeRefused || (!o->resume.isEmpty() && !resumeShared) || !o->exportStore.isEmpty() || o->demo) {
        *error = resumeShared || o->resume.isEmpty()
                     ? QStringLiteral(
                           "--cluster does not go with --export or --demo, nor --store on a --worker or "
                           "--cluster-set (the coordinator writes the rows: give it --store)")
                     : QStringLiteral(
                           "--resume NAME is for a --cluster coordinator, not --worker or --cluster-set");
        return false;
    }
    if (resumeShared) {
        if (parser.isSet(QStringLiteral("crawl")) && parser.value(QStringLiteral("crawl")) != o->resume) {
            *error = QStringLiteral("--resume names the shared crawl to continue; --crawl \"%1\" differs")
                         .arg(parser.value(QStringLiteral("crawl")));
            return false;
        }
        QString why;
        if (!isValidCrawlName(o->resume, &why)) {
            *error = QStringLiteral("--resume \"%1\": %2").arg(o->resume, why);
            return false;
        }
        // The crawl keeps the flags it was created with (stored in Redis, read by every worker): a flag
        // given now would be accepted and silently not applied.
        static const QStringList resumeFlags = {
            QStringLiteral("headless"),     QStringLiteral("input"),  QStringLiteral("output"),
            QStringLiteral("summary-json"), QStringLiteral("quiet"),  QStringLiteral("cluster"),
            QStringLiteral("crawl"),        QStringLiteral("resume"), QStringLiteral("input-changed"),
            QStringLiteral("store")};
        for (const QString &flag : std::as_const(o->explicitFlags)) {
            if (!resumeFlags.contains(flag)) {
                *error =
                    QStringLiteral("--%1 cannot change a shared crawl being resumed: it keeps the flags it "
                                   "was created with (change its limits with --cluster-set)")
                        .arg(flag);
                return false;
            }
        }
        if (!parser.isSet(QStringLiteral("headless")) || o->input.isEmpty()) {
            *error = QStringLiteral("--cluster --resume NAME runs headless and reads the crawl's list again: "
                                    "give --headless --input FILE (the same list)");
            return false;
        }
        o->crawlName = o->resume;
        o->mode = CommandLineOptions::Mode::Headless;
        return true;
    }
    if ((o->clusterWorker || o->clusterSet) && !o->input.isEmpty()) {
        *error =
            QStringLiteral("--worker and --cluster-set take no --input (the coordinator feeds the list)");
        return false;
    }
    if (o->clusterWorker && !parser.isSet(QStringLiteral("headless"))) {
        *error = QStringLiteral("--worker runs headless: add --headless");
        return false;
    }
    if (o->clusterWorker) {
        if (const QString refusal = clusterWorkerFlagRefusal(o->explicitFlags); !refusal.isEmpty()) {
            *error = refusal;
            return false;
        }
    }
    if (!o->clusterWorker && o->crawlName.isEmpty()) {
        *error = QStringLiteral("--cluster needs --crawl NAME (which shared crawl)");
        return false;
    }
    // Checked here, before Redis is contacted: a bad name would otherwise surface as a refused CLIENT
    // SETNAME ("cannot reach Redis"), or a worker would wait for a crawl that can never exist.
    QString why;
    if (parser.isSet(QStringLiteral("crawl")) && !isValidCrawlName(o->crawlName, &why)) {
        *error = QStringLiteral("--crawl \"%1\": %2").arg(o->crawlName, why);
        return false;
    }
    if (!o->clusterWorker && !o->clusterSet && !parser.isSet(QStringLiteral("headless"))) {
        *error = QStringLiteral("--cluster with --input runs headless: add --headless");
        return false;
    }
    // Workers apply the acceptance checks, the scope expressions and robots.txt (obey by default, as a
    // local crawl) with the flags stored in the crawl.
    if (!o->clusterWorker && !o->clusterSet) {
        if (const QString refusal = clusterCoordinatorFlagRefusal(o->explicitFlags); !refusal.isEmpty()) {
            *error = refusal;
            return false;
        }
        if (parser.isSet(QStringLiteral("allow-hosts"))) {
            *error =
                QStringLiteral("--allow-hosts does not apply to a --cluster crawl yet (the workers would "
                               "need the file): use --include / --exclude");
            return false;
        }
    }
    if (o->clusterSet) {
        // Anything else would be accepted and silently not applied: the user would believe it changed.
        // --concurrency too: the crawl-wide cap, which a worker's own --concurrency does not replace.
        static const QStringList sharedLimits =
            QStringList{QStringLiteral("concurrency")} + clusterSharedLimitFlags();
        static const QStringList setFlags = {QStringLiteral("cluster"), QStringLiteral("crawl"),
                                             QStringLiteral("cluster-set"), QStringLiteral("quiet"),
                                             QStringLiteral("headless")};
        // Both messages name every flag it takes (the second once listed 6 of them).
        const QString sharedLimitsText =
            QStringLiteral("--concurrency, --per-host, --interval-ms, --host-limit, --retries, --jitter, "
                           "--max-rate, --adaptive "
                           "/ --no-adaptive, --breaker / --no-breaker and --breaker-window, -threshold, "
                           "-cooldown, -give-up");
        bool anyLimit = false;
        for (const QString &flag : std::as_const(o->explicitFlags)) {
            if (sharedLimits.contains(flag)) {
                anyLimit = true;
            } else if (!setFlags.contains(flag)) {
                *error = QStringLiteral("--cluster-set changes only %1; --%2 is not a shared limit")
                             .arg(sharedLimitsText, flag);
                return false;
            }
        }
        if (!anyLimit) {
            *error = QStringLiteral("--cluster-set needs a limit to change: %1").arg(sharedLimitsText);
            return false;
        }
        o->mode = CommandLineOptions::Mode::Headless;
    }
    return true;
}

} // namespace

QString versionText() {
    return QStringLiteral("crawlscope %1").arg(QLatin1String(CRAWLSCOPE_VERSION));
}

QString commandLineHelp() {
    QString text = QStringLiteral(
        "Usage:\n"
        "  crawlscope [FILE]                    open the window (with FILE loaded)\n"
        "  crawlscope --demo [--headless]       crawl the built-in demo site\n"
        "  crawlscope --headless --input FILE|- [options]\n"
        "\n"
        "Crawls a URL list politely: global and per-host in-flight caps, per-host pacing, retries\n"
        "with backoff that honour Retry-After, and hard time and size limits.\n"
        "\n"
        "Options:\n");
    for (const Flag &flag : kFlags) {
        QString left = QStringLiteral("  --") + flagName(flag);
        if (flag.valueName)
            left += QLatin1Char(' ') + QString::fromLatin1(flag.valueName);
        text += left.leftJustified(32, QLatin1Char(' '));
        if (left.size() >= 32)
            text += QStringLiteral("\n") + QString(32, QLatin1Char(' '));
        text += QString::fromLatin1(flag.help) + QLatin1Char('\n');
    }
    text += QStringLiteral(
        "\n"
        "Output: CSV (RFC 4180, UTF-8) with columns url, final_url, host, status, outcome, attempts,\n"
        "redirects, bytes, content_type, latency_ms, ttfb_ms, error, started_at, finished_at,\n"
        "warning, accepted, reject_reason, title.\n"
        "Outcomes: ok, http_error, timeout, network_error, too_large, invalid_url, cancelled, skipped,\n"
        "blocked_robots, excluded.\n"
        "\n"
        "robots.txt: fetched once per host before its first URL, through the same limits; a disallowed\n"
        "URL ends as blocked_robots (the error names the rule and its line) without a request. A 5xx or\n"
        "unreachable robots.txt holds the host's URLs and is fetched again with backoff before they end\n"
        "as blocked. Acceptance is separate from the outcome: accepted is yes or no (empty when no\n"
        "response was checked), reject_reason says which check failed; title is the page's HTML title.\n"
        "\n"
        "Circuit breaker: a host whose recent attempts mostly fail trips: it starts nothing (other hosts go\n"
        "on) until one probe request after the cool-down; a good probe resumes it at 1 in flight for a\n"
        "window, a failed one trips it again. Trips and recoveries are reported on stderr.\n"
        "\n"
        "Files: a regular --output or --summary-json file is written to a temporary file and renamed at\n"
        "the end, so a failed run leaves the previous one as it was; - means standard output; FIFOs and\n"
        "devices are written directly. An output that is the input list is refused. URL passwords are\n"
        "shown as ***.\n"
        "\n"
        "Exit status: 0 the crawl completed (whatever each URL's outcome); 1 results could not be\n"
        "written; 2 bad usage, unreadable input, or reading the input failed part way; 130 interrupted\n"
        "(SIGINT/SIGTERM/SIGHUP), rows complete; a second signal exits at once, replacing no file.\n");
    return text;
}

bool isCrawlFlag(const QString &name) {
    // Not part of a stored crawl: where its rows go, what it reads, and the journal flags themselves.
    static const QStringList notCrawlFlags = {
        QStringLiteral("headless"),     QStringLiteral("demo"),         QStringLiteral("input"),
        QStringLiteral("output"),       QStringLiteral("summary-json"), QStringLiteral("quiet"),
        QStringLiteral("store"),        QStringLiteral("resume"),       QStringLiteral("export"),
        QStringLiteral("help"),         QStringLiteral("version"),      QStringLiteral("cluster"),
        QStringLiteral("crawl"),        QStringLiteral("worker"),       QStringLiteral("cluster-set"),
        QStringLiteral("input-changed")};
    if (notCrawlFlags.contains(name))
        return false;
    for (const Flag &flag : kFlags) {
        if (flagName(flag) == name)
            return true;
    }
    return false;
}

QStringList resumeArguments(const QStringList &arguments, const QStringList &storedCrawlArguments,
                            QStringList *ignored) {
    // A repeatable flag given now replaces its stored values rather than adding to them.
    QStringList givenNow;
    for (const QString &argument : arguments.mid(1)) {
        if (argument.startsWith(QLatin1String("--")))
            givenNow << argument.mid(2).section(QLatin1Char('='), 0, 0);
    }
    QStringList merged{arguments.value(0)};
    for (const QString &stored : storedCrawlArguments) {
        // The file may come from anyone: only crawl flags in the canonical "--name" / "--name=value" form
        // come back (a stored --output or --summary-json would overwrite whatever file it names).
        const QString name = stored.mid(2).section(QLatin1Char('='), 0, 0);
        if (!stored.startsWith(QLatin1String("--")) || !isCrawlFlag(name)) {
            if (ignored && !stored.isEmpty())
                *ignored << stored;
            continue;
        }
        const bool repeatable = name == QLatin1String("header") || name == QLatin1String("host-limit");
        if (!(repeatable && givenNow.contains(name)))
            merged << stored;
    }
    merged << arguments.mid(1);
    return merged;
}

QStringList storableCrawlArguments(const QStringList &crawlArguments, QStringList *withheldHeaders) {
    // A crawl file is a world-readable document that gets copied and shared: no secret goes into it.
    QStringList storable;
    for (const QString &argument : crawlArguments) {
        static const QString headerFlag = QStringLiteral("--header=");
        if (argument.startsWith(headerFlag)) {
            const QString name = argument.mid(headerFlag.size()).section(QLatin1Char(':'), 0, 0).trimmed();
            if (isCredentialHeader(name.toLatin1())) {
                if (withheldHeaders && !withheldHeaders->contains(name, Qt::CaseInsensitive))
                    *withheldHeaders << name;
                continue;
            }
        }
        storable << argument;
    }
    return storable;
}

bool parseHostLimit(const QString &text, CrawlLimits *limits, QString *error) {
    const qsizetype eq = text.lastIndexOf(QLatin1Char('='));
    const QString host = text.left(eq).trimmed().toLower();
    const QString spec = eq < 0 ? QString() : text.mid(eq + 1).trimmed();
    const auto fail = [&] {
        *error =
            QStringLiteral("--host-limit expects HOST=N or HOST=N/MS, e.g. example.com=1/2000 (got \"%1\")")
                .arg(text);
        return false;
    };
    if (eq <= 0 || host.isEmpty() || spec.isEmpty())
        return fail();
    const QStringList parts = spec.split(QLatin1Char('/'));
    if (parts.size() > 2)
        return fail();
    bool ok = false;
    HostOverride value;
    value.maxInFlight = parts[0].toInt(&ok);
    if (!ok || !settingrange::hostOverrideInFlight.contains(value.maxInFlight))
        return fail();
    if (parts.size() == 2) {
        value.intervalMs = parts[1].toInt(&ok);
        if (!ok || !settingrange::intervalMs.contains(value.intervalMs))
            return fail();
    }
    // Accept "host", "host:port" or a URL; the limiter's unit is host:port.
    const QUrl url =
        QUrl::fromUserInput(host.contains(QLatin1String("://")) ? host : QStringLiteral("http://") + host);
    if (!url.isValid() || url.host().isEmpty())
        return fail();
    const QString name =
        url.host().contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(url.host()) : url.host();
    if (url.port() > 0) {
        limits->hostOverrides.insert(name + QLatin1Char(':') + QString::number(url.port()), value);
    } else {
        limits->hostOverrides.insert(name + QStringLiteral(":80"), value);
        limits->hostOverrides.insert(name + QStringLiteral(":443"), value);
    }
    return true;
}

bool parseHeader(const QString &text, FetchPolicy *policy, QString *error) {
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const QString name = text.left(colon).trimmed();
    const QString value = text.mid(colon + 1).trimmed();
    bool validName = colon > 0 && !name.isEmpty();
    for (const QChar c : name)
        validName = validName && c.unicode() > 32 && c.unicode() < 127 && c != QLatin1Char(':');
    if (!validName || hasControlCharacter(value)) {
        *error = QStringLiteral("--header expects \"Name: value\" (got \"%1\")").arg(text);
        return false;
    }
    policy->headers.append({name.toLatin1(), value.toUtf8()});
    return true;
}

CommandLineParse parseCommandLine(const QStringList &arguments) {
    CommandLineParse result;
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    for (const Flag &flag : kFlags) {
        if (flag.valueName)
            parser.addOption(QCommandLineOption(flagName(flag), QString::fromLatin1(flag.help),
                                                QString::fromLatin1(flag.valueName)));
        else
            parser.addOption(QCommandLineOption(flagName(flag), QString::fromLatin1(flag.help)));
    }
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("A URL list to open in the window."));
    if (!parser.parse(arguments)) {
        result.error = parser.errorText();
        return result;
    }

    CommandLineOptions &o = result.options;
    if (parser.isSet(QStringLiteral("help"))) {
        o.mode = CommandLineOptions::Mode::Help;
        result.ok = true;
        return result;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        o.mode = CommandLineOptions::Mode::Version;
        result.ok = true;
        return result;
    }
    for (const Flag &flag : kFlags) {
        if (parser.isSet(flagName(flag)))
            o.explicitFlags << flagName(flag);
    }
    o.demo = parser.isSet(QStringLiteral("demo"));
    o.quiet = parser.isSet(QStringLiteral("quiet"));
    o.input = parser.value(QStringLiteral("input"));
    o.output = parser.value(QStringLiteral("output"));
    o.summaryJson = parser.value(QStringLiteral("summary-json"));
    o.store = parser.value(QStringLiteral("store"));
    o.resume = parser.value(QStringLiteral("resume"));
    o.exportStore = parser.value(QStringLiteral("export"));
    for (const Flag &flag : kFlags) {
        const QString name = flagName(flag);
        if (!isCrawlFlag(name) || !parser.isSet(name))
            continue;
        if (!flag.valueName) {
            o.crawlArguments << QStringLiteral("--") + name;
            continue;
        }
        for (const QString &value : parser.values(name))
            o.crawlArguments << QStringLiteral("--%1=%2").arg(name, value);
    }
    const QStringList positional = parser.positionalArguments();
    const bool headless = parser.isSet(QStringLiteral("headless"));
    o.mode = headless ? CommandLineOptions::Mode::Headless : CommandLineOptions::Mode::Window;

    QString &error = result.error;
    qint64 v = 0;
    namespace R = settingrange;
    const auto intFlag = [&](const char *name, SettingRange range, auto setter) {
        v = std::numeric_limits<qint64>::min();
        if (!readNumber<qint64>(parser, name, range.min, range.max, &v, &error))
            return false;
        if (v != std::numeric_limits<qint64>::min())
            setter(v);
        return true;
    };
    const bool intsOk =
        intFlag("concurrency", R::globalInFlight, [&](qint64 x) { o.limits.globalInFlight = int(x); }) &&
        intFlag("per-host", R::perHostInFlight, [&](qint64 x) { o.limits.perHostInFlight = int(x); }) &&
        intFlag("interval-ms", R::intervalMs, [&](qint64 x) { o.limits.intervalMs = int(x); }) &&
        intFlag("retries", R::maxRetries, [&](qint64 x) { o.policy.maxRetries = int(x); }) &&
        intFlag("backoff-ms", R::backoffMs, [&](qint64 x) { o.policy.backoffBaseMs = int(x); }) &&
        intFlag("max-retry-after", R::maxRetryAfterS, [&](qint64 x) { o.policy.maxRetryAfterS = int(x); }) &&
        intFlag("max-url-time", R::maxUrlTimeS, [&](qint64 x) { o.policy.maxUrlTimeS = int(x); }) &&
        intFlag("timeout", R::totalTimeoutS, [&](qint64 x) { o.policy.totalTimeoutS = int(x); }) &&
        intFlag("connect-timeout", R::connectTimeoutS,
                [&](qint64 x) { o.policy.connectTimeoutS = int(x); }) &&
        intFlag("idle-timeout", R::idleTimeoutS, [&](qint64 x) { o.policy.idleTimeoutS = int(x); }) &&
        intFlag("max-bytes", R::maxBodyBytes, [&](qint64 x) { o.policy.maxBodyBytes = x; }) &&
        intFlag("max-redirects", R::maxRedirects, [&](qint64 x) { o.policy.maxRedirects = int(x); }) &&
        intFlag("threads", R::fetchThreads, [&](qint64 x) { o.fetchThreads = int(x); }) &&
        intFlag("breaker-window", R::breakerWindow, [&](qint64 x) { o.policy.breaker.window = int(x); }) &&
        intFlag("breaker-cooldown", R::breakerCooldownS,
                [&](qint64 x) { o.policy.breaker.cooldownS = int(x); }) &&
        intFlag("breaker-give-up", R::breakerGiveUpS, [&](qint64 x) { o.policy.breaker.giveUpS = int(x); });
    if (!intsOk)
        return result;
    if (!readNumber(parser, "jitter", R::jitter.min, R::jitter.max, &o.limits.jitter, &error) ||
        !readNumber(parser, "max-rate", R::maxRatePerSec.min, R::maxRatePerSec.max, &o.limits.maxRatePerSec,
                    &error) ||
        !readNumber(parser, "breaker-threshold", R::breakerThreshold.min, R::breakerThreshold.max,
                    &o.policy.breaker.threshold, &error))
        return result;
    for (const QString &spec : parser.values(QStringLiteral("host-limit"))) {
        if (!parseHostLimit(spec, &o.limits, &error))
            return result;
    }
    for (const QString &header : parser.values(QStringLiteral("header"))) {
        if (!parseHeader(header, &o.policy, &error))
            return result;
    }
    o.policy.sendCredentialsCrossOrigin = parser.isSet(QStringLiteral("send-credentials-cross-origin"));
    o.policy.refusePrivateRedirects = parser.isSet(QStringLiteral("no-private-redirects"));
    for (const auto &[on, off] : {std::pair{"adaptive", "no-adaptive"}, std::pair{"breaker", "no-breaker"}}) {
        if (parser.isSet(QLatin1String(on)) && parser.isSet(QLatin1String(off))) {
            error = QStringLiteral("--%1 and --%2 contradict each other: give one")
                        .arg(QLatin1String(on), QLatin1String(off));
            return result;
        }
    }
    o.policy.breaker.enabled = !parser.isSet(QStringLiteral("no-breaker"));
    o.limits.adaptive = parser.isSet(QStringLiteral("adaptive"));
    if (parser.isSet(QStringLiteral("user-agent"))) {
        o.policy.userAgent = parser.value(QStringLiteral("user-agent")).trimmed();
        if (o.policy.userAgent.isEmpty()) {
            error = QStringLiteral("--user-agent must not be empty");
            return result;
        }
        if (hasControlCharacter(parser.value(QStringLiteral("user-agent")))) {
            error = QStringLiteral("--user-agent must not contain line breaks or other control characters");
            return result;
        }
    }

    if (!parseQualityOptions(parser, &o.quality, &error))
        return result;
    if (parser.isSet(QStringLiteral("sync"))) {
        const QString sync = parser.value(QStringLiteral("sync")).trimmed().toLower();
        if (sync != QLatin1String("normal") && sync != QLatin1String("full")) {
            error = QStringLiteral("--sync expects normal or full (got \"%1\")").arg(sync);
            return result;
        }
        o.syncFull = sync == QLatin1String("full");
    }
    if (parser.isSet(QStringLiteral("input-changed"))) {
        const QString choice = parser.value(QStringLiteral("input-changed")).trimmed().toLower();
        if (choice != QLatin1String("refuse") && choice != QLatin1String("ok")) {
            error = QStringLiteral("--input-changed expects refuse or ok (got \"%1\")").arg(choice);
            return result;
        }
        if (parser.value(QStringLiteral("resume")).isEmpty()) {
            error = QStringLiteral("--input-changed applies to --resume only");
            return result;
        }
        o.inputChangedOk = choice == QLatin1String("ok");
    }
    if (!parseClusterOptions(parser, &o, &error))
        return result;
    if (o.clusterWorker || o.clusterSet || (!o.clusterUrl.isEmpty() && !o.resume.isEmpty())) {
        result.ok = true;
        return result;
    }
    const int journalModes =
        int(!o.store.isEmpty()) + int(!o.resume.isEmpty()) + int(!o.exportStore.isEmpty());
    if (journalModes > 1) {
        error = QStringLiteral("--store, --resume and --export are separate jobs: give one of them");
        return result;
    }
    if (!o.exportStore.isEmpty()) {
        if (!o.input.isEmpty() || o.demo) {
            error = QStringLiteral(
                "--export writes a journaled crawl's rows; it does not crawl --input or --demo");
            return result;
        }
        o.mode = CommandLineOptions::Mode::Export;
        result.ok = true;
        return result;
    }
    if ((!o.store.isEmpty() || !o.resume.isEmpty()) && !headless) {
        error = QStringLiteral("--store and --resume run headless: add --headless");
        return result;
    }
    if (!o.store.isEmpty() && o.demo) {
        error = QStringLiteral("--store journals a crawl of your own list (--input), not the demo");
        return result;
    }
    if (!o.resume.isEmpty()) {
        if (!o.input.isEmpty() || o.demo) {
            error = QStringLiteral("--resume continues the list stored in %1; do not give --input or --demo")
                        .arg(o.resume);
            return result;
        }
        result.ok = true;
        return result;
    }

    if (headless) {
        if (!o.demo && o.input.isEmpty()) {
            error = QStringLiteral("--headless needs --input FILE (or - for stdin), or --demo");
            return result;
        }
        if (!positional.isEmpty()) {
            error = QStringLiteral("unexpected argument \"%1\" (use --input FILE with --headless)")
                        .arg(positional.first());
            return result;
        }
    } else {
        if (positional.size() > 1) {
            error = QStringLiteral("only one list can be opened at a time (got %1)").arg(positional.size());
            return result;
        }
        o.fileToOpen = positional.value(0, o.input);
    }
    result.ok = true;
    return result;
}

} // namespace crawl
