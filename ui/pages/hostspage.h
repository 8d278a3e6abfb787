#pragma once

#include "model/crawllimits.h"
#include "model/hostaction.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace ui {

class HostsModel;

// The Hosts tab: one row per host, sorted by any column; its context menu pauses, resumes, skips or
// resumes a tripped host (the window applies it to its crawl, local or shared), and asks the window for
// per-host limits.
class HostsPage : public QWidget {
    Q_OBJECT
public:
    explicit HostsPage(HostsModel *hosts, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    // A line above the table about what it shows (an opened crawl's "busiest 1,000 of 100,000 hosts");
    // hidden when empty.
    void setNote(const QString &text);
    QString note() const;
    void setConfirmationsEnabled(bool on) { m_confirm = on; }
    // The hosts with limits of their own (for "Use Global Limits").
    void setOverrides(const QHash<QString, crawl::HostOverride> &overrides) { m_overrides = overrides; }
    // The global limits the per-host dialog starts from (the limits panel's).
    void setGlobalLimits(std::function<crawl::CrawlLimits()> limits) { m_globalLimits = std::move(limits); }

Q_SIGNALS:
    // Pause, Resume, Skip Remaining URLs (confirmed) or Resume Tripped Host chosen for a host.
    void hostActionChosen(const QString &hostKey, crawl::HostAction action);
    // The user chose "Limits for This Host…" and accepted the dialog (nullopt: back to the global ones).
    void overrideChosen(const QString &hostKey, const std::optional<crawl::HostOverride> &value);

private:
    void showMenu(const QPoint &pos);

    HostsModel *m_hosts;
    QSortFilterProxyModel *m_sort;
    QTableView *m_view;
    QLabel *m_note;
    QHash<QString, crawl::HostOverride> m_overrides;
    std::function<crawl::CrawlLimits()> m_globalLimits;
    bool m_confirm = true;
};

} // namespace ui
