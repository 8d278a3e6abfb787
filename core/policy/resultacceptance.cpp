#include "policy/resultacceptance.h"

#include "policy/htmlpagefacts.h"

namespace crawl {

void applyAcceptance(CrawlResult &result, const AcceptanceCriteria &criteria, const QByteArray &bodyPrefix) {
    if (result.status <= 0)
        return; // no HTTP response: nothing to accept or reject
    AcceptanceFacts facts;
    facts.status = result.status;
    facts.contentType = result.contentType.toLatin1();
    facts.bodyPrefix = bodyPrefix;
    facts.totalBytes = result.bytes;
    if (!bodyPrefix.isEmpty() && (facts.contentType.isEmpty() || facts.contentType.contains("html")))
        facts.page = extractHtmlPageFacts(bodyPrefix, facts.contentType);
    const AcceptanceVerdict verdict = checkAcceptance(criteria, facts);
    switch (verdict.accepted) {
    case AcceptanceVerdict::Accepted::Yes:
        result.accepted = CrawlResult::Accepted::Yes;
        break;
    case AcceptanceVerdict::Accepted::No:
        result.accepted = CrawlResult::Accepted::No;
        break;
    case AcceptanceVerdict::Accepted::NotApplicable:
        result.accepted = CrawlResult::Accepted::Unknown;
        break;
    }
    result.rejectReason = verdict.reason;
    if (verdict.soft404 && criteria.soft404 == Soft404Mode::Report) {
        const QString note = QStringLiteral("soft 404 (reported only): ") + verdict.soft404Evidence;
        result.rejectReason =
            result.rejectReason.isEmpty() ? note : result.rejectReason + QStringLiteral("; ") + note;
    }
    result.title = facts.page.title;
}

} // namespace crawl
