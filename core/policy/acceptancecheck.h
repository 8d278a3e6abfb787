#pragma once

#include "policy/htmlpagefacts.h"

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>

// Integration (issue 13): the CLI builds one AcceptanceCriteria from --expect-status, --expect-type,
// --expect-text, --expect-regex, --expect-title, --min-bytes and the soft-404 setting (parse errors from
// parseStatusList / parseContentTypeList name the flag's text). The fetch path keeps the first
// criteria.bodyPrefixBytes of each body, and when a response ends (any outcome that has an HTTP status)
// calls extractHtmlPageFacts then checkAcceptance. The outcome stays what the transport says; the verdict
// fills the CSV columns `accepted` (acceptedCell), `reject_reason` (reason) and `title` (page.title), and
// the accepted-vs-raw statistics. No HTTP response at all (network error, timeout) gives NotApplicable.

namespace crawl {

struct StatusRange {
    int first = 200;
    int last = 299;
    bool operator==(const StatusRange &) const = default;
};

enum class Soft404Mode { Off, Report, Reject };

struct AcceptanceCriteria {
    QList<StatusRange> statuses{StatusRange{200, 299}};
    QList<QByteArray> contentTypes;   // lower-case "type/subtype" or "type/*"; empty: any type
    QString expectedText;             // searched case-sensitively in the decoded prefix; empty: no check
    QRegularExpression expectedRegex; // an empty pattern: no check
    qsizetype bodyPrefixBytes = 256 * 1024;
    bool expectTitle = false;
    qint64 minBytes = 0;
    Soft404Mode soft404 = Soft404Mode::Report;
    QRegularExpression soft404Pattern = defaultSoft404Pattern();

    // Words that error templates put in their title or main heading. Whole words, case-insensitive.
    static QRegularExpression defaultSoft404Pattern();
};

// What the checks look at; `bodyPrefix` is at most criteria.bodyPrefixBytes of the decoded body.
struct AcceptanceFacts {
    int status = 0; // 0: no HTTP response
    QByteArray contentType;
    QByteArray bodyPrefix;
    qint64 totalBytes = 0;
    HtmlPageFacts page; // extractHtmlPageFacts(bodyPrefix, contentType) for HTML; default otherwise
};

struct AcceptanceVerdict {
    enum class Accepted { NotApplicable, Yes, No };
    Accepted accepted = Accepted::NotApplicable;
    QString reason;          // the failed checks, "; "-separated, e.g. "status 404 not in 200-299"
    bool soft404 = false;    // title or heading looks like an error page (also when only reported)
    QString soft404Evidence; // e.g. `title "Page not found"`
};

AcceptanceVerdict checkAcceptance(const AcceptanceCriteria &criteria, const AcceptanceFacts &response);

// The CSV cell: "yes", "no", or empty when no check applies.
QString acceptedCell(AcceptanceVerdict::Accepted accepted);

// "200-299,304" -> ranges; nullopt with `error` naming the bad item ("\"2x0\" is not a status or range").
std::optional<QList<StatusRange>> parseStatusList(const QString &text, QString *error);
// "text/html, application/json; charset=utf-8" -> {"text/html", "application/json"} (parameters dropped).
std::optional<QList<QByteArray>> parseContentTypeList(const QString &text, QString *error);
// "200-299,304" back again, for messages.
QString statusListText(const QList<StatusRange> &ranges);

} // namespace crawl
