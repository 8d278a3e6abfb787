#include "siteserver.h"

#include "httpformat.h"
#include "siteconnection.h"
#include "siterecorder.h"

#include <QTcpServer>
#include <QTcpSocket>

namespace testsite {

SiteServer::~SiteServer() {
    // Before QObject's own teardown, while m_connections is still alive for their destroyed().
    const QSet<SiteConnection *> open = m_connections;
    qDeleteAll(open);
}

QString SiteServer::listen(const QHostAddress &address, quint16 port, QString *error) {
    auto *server = new QTcpServer(this);
    server->setListenBacklogSize(1024);
    if (!server->listen(address, port)) {
        if (error)
            *error = server->errorString();
        delete server;
        return {};
    }
    const QString name = hostKey(address, server->serverPort());
    ObservedHost *host = m_recorder->addHost(name);
    connect(server, &QTcpServer::newConnection, this, [this, server, host] {
        while (QTcpSocket *socket = server->nextPendingConnection()) {
            auto *c = new SiteConnection(m_recorder, host, socket, this);
            m_connections.insert(c);
            connect(c, &QObject::destroyed, this, [this, c] { m_connections.remove(c); });
        }
    });
    return name;
}

void SiteServer::shutdown() {
    for (QTcpServer *s : findChildren<QTcpServer *>(Qt::FindDirectChildrenOnly))
        s->close();
    const QSet<SiteConnection *> open = m_connections;
    for (SiteConnection *c : open)
        c->shutdown();
}

} // namespace testsite
