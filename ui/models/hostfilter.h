#pragma once

#include <QSet>
#include <QString>

namespace ui {

// Which hosts a results table shows. "Every host but these" keeps showing hosts that appear later;
// "only these" keeps hiding them: the choice the user made stays true as the crawl goes on.
class HostFilter {
public:
    bool accepts(const QString &host) const {
        return m_only ? m_hosts.contains(host) : !m_hosts.contains(host);
    }
    bool showsAll() const { return !m_only && m_hosts.isEmpty(); }

    void showAll() {
        m_only = false;
        m_hosts.clear();
    }
    void showOnly(const QSet<QString> &hosts) {
        m_only = true;
        m_hosts = hosts;
    }
    // Ticks or unticks one host, keeping the mode (every host but … / only …).
    void setShown(const QString &host, bool shown);

    bool operator==(const HostFilter &) const = default;

private:
    bool m_only = false;
    QSet<QString> m_hosts; // hidden ones (m_only false) or the shown ones (m_only true)
};

} // namespace ui
