#include "pages/hostspage.h"

#include "dialogs/hostoverridedialog.h"
#include "models/hostsmodel.h"
#include "pages/actionicon.h"
#include "pages/tablesetup.h"
#include "widgets/inflightbardelegate.h"

#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

HostsPage::HostsPage(HostsModel *hosts, QWidget *parent)
    : QWidget(parent)
    , m_hosts(hosts)
    , m_sort(new QSortFilterProxyModel(this))
    , m_view(makeTable(this))
    , m_note(new QLabel(this)) {
    m_sort->setSourceModel(m_hosts);
    m_sort->setSortRole(HostsModel::SortRole);
    m_sort->setDynamicSortFilter(true); // a few hundred rows at a few hertz: cheap

    m_view->setObjectName(QStringLiteral("hostsView"));
    m_view->setModel(m_sort);
    // Host names are read from the left ("127.0.0.2:18291"): never cut them there.
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(HostsModel::HostColumn, Qt::AscendingOrder);
    m_view->setItemDelegateForColumn(HostsModel::InFlightColumn, new InFlightBarDelegate(m_view));
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setToolTip(tr("Right-click a host to pause, resume or skip it, or to give it its own limits"));
    const int hostWidth =
        m_view->fontMetrics().horizontalAdvance(QStringLiteral("255.255.255.255:65535  · override")) + 24;
    setColumnWidths(m_view, {{HostsModel::HostColumn, hostWidth},
                             {HostsModel::StateColumn, 150},
                             {HostsModel::InFlightColumn, 110},
                             {HostsModel::QueuedColumn, 70},
                             {HostsModel::DoneColumn, 70},
                             {HostsModel::OkColumn, 60},
                             {HostsModel::FailedColumn, 60},
                             {HostsModel::RetriesColumn, 60},
                             {HostsModel::Status429Column, 50},
                             {HostsModel::P50Column, 55},
                             {HostsModel::P95Column, 55},
                             {HostsModel::LastStatusColumn, 50},
                             {HostsModel::IntervalColumn, 80},
                             {HostsModel::RobotsColumn, 200},
                             {HostsModel::YieldColumn, 60},
                             {HostsModel::QueueAgeColumn, 75},
                             {HostsModel::Rate429Column, 65}});
    connect(m_view, &QWidget::customContextMenuRequested, this, &HostsPage::showMenu);

    m_note->setObjectName(QStringLiteral("hostsNote"));
    m_note->setWordWrap(true);
    m_note->setContentsMargins(6, 3, 6, 3);
    m_note->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_note);
    layout->addWidget(m_view);
}

void HostsPage::setNote(const QString &text) {
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

QString HostsPage::note() const {
    return m_note->text();
}

void HostsPage::showMenu(const QPoint &pos) {
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    const QString host = index.data(HostsModel::HostKeyRole).toString();
    const auto state = crawl::HostState(index.data(HostsModel::StateRole).toInt());
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    QAction *pause =
        menu.addAction(actionIcon(QStringLiteral("crawlscope-host-pause")), tr("Pause %1").arg(host));
    pause->setToolTip(tr("No new request starts on this host; requests in flight finish"));
    QAction *resume =
        menu.addAction(actionIcon(QStringLiteral("media-playback-start")), tr("Resume %1").arg(host));
    pause->setEnabled(state != crawl::HostState::Paused);
    resume->setEnabled(state == crawl::HostState::Paused);
    QAction *skip =
        menu.addAction(actionIcon(QStringLiteral("crawlscope-host-skip")), tr("Skip Remaining URLs"));
    skip->setToolTip(tr("Every queued URL of this host ends as cancelled"));
    QAction *resumeTripped = menu.addAction(tr("Resume Tripped Host"));
    resumeTripped->setToolTip(tr("Its circuit breaker tripped: start requests again now, without waiting "
                                 "for the probe"));
    resumeTripped->setEnabled(crawl::BreakerState(index.data(HostsModel::BreakerStateRole).toInt()) !=
                              crawl::BreakerState::Closed);
    menu.addSeparator();
    QAction *limits = menu.addAction(actionIcon(QStringLiteral("configure")), tr("Limits for This Host…"));
    QAction *clearLimits = menu.addAction(tr("Use Global Limits"));
    clearLimits->setEnabled(m_overrides.contains(host));

    QAction *chosen = menu.exec(m_view->viewport()->mapToGlobal(pos));
    if (chosen == pause) {
        Q_EMIT hostActionChosen(host, crawl::HostAction::Pause);
    } else if (chosen == resume) {
        Q_EMIT hostActionChosen(host, crawl::HostAction::Resume);
    } else if (chosen == resumeTripped) {
        Q_EMIT hostActionChosen(host, crawl::HostAction::ResumeTripped);
    } else if (chosen == skip) {
        if (!m_confirm ||
            QMessageBox::question(this, tr("Skip %1?").arg(host),
                                  tr("Every URL of %1 not yet started ends as cancelled.").arg(host)) ==
                QMessageBox::Yes) {
            Q_EMIT hostActionChosen(host, crawl::HostAction::Skip);
            m_hosts->markSkipped(host);
        }
    } else if (chosen == limits) {
        const crawl::CrawlLimits global = m_globalLimits ? m_globalLimits() : crawl::CrawlLimits{};
        HostOverrideDialog dialog(host, m_overrides.value(host, crawl::HostOverride{0, -1}), global, this);
        if (dialog.exec() == QDialog::Accepted)
            Q_EMIT overrideChosen(host, dialog.value());
    } else if (chosen == clearLimits) {
        Q_EMIT overrideChosen(host, std::nullopt);
    }
}

} // namespace ui
