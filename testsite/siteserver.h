#pragma once

#include <QHostAddress>
#include <QObject>
#include <QSet>
#include <QString>

namespace testsite {

class SiteConnection;
class SiteRecorder;

// Lives in the test site's thread: the listening sockets and their connections.
class SiteServer : public QObject {
public:
    explicit SiteServer(SiteRecorder *recorder)
        : m_recorder(recorder) {}
    ~SiteServer() override;

    // Returns "address:port", or an empty string and sets *error.
    QString listen(const QHostAddress &address, quint16 port, QString *error);
    // Stops listening and drops every connection, ending their open requests.
    void shutdown();

private:
    SiteRecorder *m_recorder;
    QSet<SiteConnection *> m_connections;
};

} // namespace testsite
