#pragma once

#include "model/crawlresult.h"

#include <QString>
#include <QStringList>

namespace ui {

// Which rows a results table shows by acceptance (issue 13): accepted, rejected, not checked, in any
// combination, and optionally only the rows whose reject reason names some of the checks (status,
// content type, size, title, text, regex, soft 404). A reason can name several checks ("; "-separated);
// the row shows when any of them is chosen.
class AcceptanceFilter {
public:
    enum Check : quint32 {
        StatusCheck = 1u << 0,
        ContentTypeCheck = 1u << 1,
        SizeCheck = 1u << 2,
        TitleCheck = 1u << 3,
        TextCheck = 1u << 4,
        RegexCheck = 1u << 5,
        Soft404Check = 1u << 6,
        OtherCheck = 1u << 7, // a reason none of the above recognizes
    };
    static constexpr quint32 kAllChecks = 0xff;
    static constexpr int kCheckCount = 8;

    // The checks a reject reason names, as the acceptance check words them ("status 404 not in 200-299").
    static quint32 checksOf(const QString &reason);
    static QString checkName(Check check); // "status", "content type", … for menus
    static Check checkAt(int index) { return Check(1u << index); }

    bool showsAll() const { return m_acceptance == 7 && m_checks == kAllChecks; }
    void setShown(crawl::CrawlResult::Accepted accepted, bool shown);
    bool isShown(crawl::CrawlResult::Accepted accepted) const { return m_acceptance & bit(accepted); }
    // Only rows whose reason names one of `checks`; kAllChecks: any row, with a reason or without.
    void setChecks(quint32 checks) { m_checks = checks & kAllChecks; }
    quint32 checks() const { return m_checks; }
    void showAll() { *this = AcceptanceFilter(); }

    // `reasonChecks` is checksOf(the row's reason), which callers cache per interned reason.
    bool accepts(crawl::CrawlResult::Accepted accepted, quint32 reasonChecks) const {
        if (!(m_acceptance & bit(accepted)))
            return false;
        return m_checks == kAllChecks || (reasonChecks & m_checks) != 0;
    }

    bool operator==(const AcceptanceFilter &) const = default;

private:
    static quint32 bit(crawl::CrawlResult::Accepted accepted) { return 1u << unsigned(accepted); }
    quint32 m_acceptance = 7; // bit per CrawlResult::Accepted
    quint32 m_checks = kAllChecks;
};

} // namespace ui
