#pragma once

#include "cluster/clusterprobe.h"
#include "cluster/redisurl.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ui {

// File > Attach to Cluster…: the Redis URL and the crawl to watch. The crawl list comes from that Redis
// (List Crawls, or on its own once the URL is typed); OK checks that Redis answers and that the crawl
// exists before the dialog closes, and says clearly why not (refused, AUTH, unknown crawl, TLS refused).
// The password never shows: once typed, the URL field shows the redacted form and the dialog keeps the
// password in memory; CRAWLSCOPE_REDIS_PASSWORD is used when the URL has none. Redis is asked on a
// worker thread: the window never waits for it.
class ClusterAttachDialog : public QDialog {
    Q_OBJECT
public:
    explicit ClusterAttachDialog(QWidget *parent = nullptr);

    QLineEdit *urlEdit() const { return m_url; }
    QComboBox *crawlBox() const { return m_crawl; }
    QLabel *errorLabel() const { return m_error; }
    QPushButton *okButton() const { return m_ok; }
    QPushButton *listButton() const { return m_list; }

    // Valid once accepted.
    crawl::RedisUrl url() const { return m_parsed.value_or(crawl::RedisUrl{}); }
    QString crawlName() const;

    void accept() override;

Q_SIGNALS:
    void probeFinished(const QString &error); // for tests: a check or listing has answered

private:
    // Parses the URL field (the remembered password for "***"), shows the redacted form in the field.
    std::optional<crawl::RedisUrl> readUrl();
    void probe(bool attach);
    void onProbe(int generation, bool attach, const crawl::ClusterProbe &result);
    void setBusy(bool busy);

    QLineEdit *m_url;
    QComboBox *m_crawl;
    QLabel *m_error;
    QPushButton *m_ok;
    QPushButton *m_list;
    QString m_password; // typed in the URL; never shown again
    std::optional<crawl::RedisUrl> m_parsed;
    int m_generation = 0;
};

} // namespace ui
