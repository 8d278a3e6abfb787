#pragma once

#include "cluster/clusterattachdialog.h"
#include "cluster/clustersession.h"
#include "mainwindow.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

namespace clustertest {

// Types the URL and crawl into File > Attach to Cluster… and clicks Attach, as a user does; true once the
// window is attached.
inline bool attachByDialog(ui::MainWindow &window, const QString &url, const QString &crawl) {
    ui::ClusterAttachDialog *dialog = window.showAttachToCluster();
    if (!QTest::qWaitForWindowExposed(dialog))
        return false;
    dialog->urlEdit()->clear();
    QTest::keyClicks(dialog->urlEdit(), url);
    dialog->crawlBox()->lineEdit()->clear();
    QTest::keyClicks(dialog->crawlBox()->lineEdit(), crawl);
    QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
    return QTest::qWaitFor([&] { return window.clusterSession()->isAttached(); }, 15'000);
}

} // namespace clustertest
