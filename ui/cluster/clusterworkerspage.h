#pragma once

#include "cluster/clusterwatchsnapshot.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace ui {

class ClusterWorkersModel;

// The Workers tab while the window is attached to a shared crawl: which crawl on which Redis (the URL
// redacted), whether the link is up ("disconnected, retrying"), and the workers table.
class ClusterWorkersPage : public QWidget {
    Q_OBJECT
public:
    explicit ClusterWorkersPage(QWidget *parent = nullptr);

    void setSnapshot(const crawl::ClusterWatchSnapshot &snapshot);
    void clear();
    QTableView *view() const { return m_view; }
    QLabel *statusLabel() const { return m_status; }
    ClusterWorkersModel *model() const { return m_model; }

private:
    ClusterWorkersModel *m_model;
    QLabel *m_status;
    QTableView *m_view;
};

} // namespace ui
