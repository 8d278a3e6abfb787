#include "cluster/clusterworkerspage.h"

#include "cluster/clusterworkersmodel.h"
#include "pages/tablesetup.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace ui {

ClusterWorkersPage::ClusterWorkersPage(QWidget *parent)
    : QWidget(parent)
    , m_model(new ClusterWorkersModel(this))
    , m_status(new QLabel(this)) {
    m_status->setObjectName(QStringLiteral("clusterStatus"));
    m_status->setWordWrap(true);
    m_view = makeTable(this);
    m_view->setObjectName(QStringLiteral("workersView"));
    m_view->setModel(m_model);
    setColumnWidths(m_view, {{ClusterWorkersModel::Id, 260},
                             {ClusterWorkersModel::Host, 140},
                             {ClusterWorkersModel::State, 70},
                             {ClusterWorkersModel::InFlight, 80},
                             {ClusterWorkersModel::Rate, 90}});
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
}

void ClusterWorkersPage::setSnapshot(const crawl::ClusterWatchSnapshot &s) {
    if (!s.connected) {
        // The table keeps the last workers seen: stale, but better than an empty page while Redis is away.
        m_status->setText(tr("Crawl \"%1\" on %2: %3").arg(s.crawlName, s.redactedUrl, s.problem));
        return;
    }
    m_model->setWorkers(s.workers);
    m_status->setText(tr("Crawl \"%1\" on %2: %3 of %n worker(s) alive", nullptr, int(s.workers.size()))
                          .arg(s.crawlName, s.redactedUrl)
                          .arg(m_model->aliveCount()));
}

void ClusterWorkersPage::clear() {
    m_model->clear();
    m_status->clear();
}

} // namespace ui
