#include "models/hostfilter.h"

namespace ui {

void HostFilter::setShown(const QString &host, bool shown) {
    // Listed means hidden in "every host but", shown in "only".
    if (shown == m_only)
        m_hosts.insert(host);
    else
        m_hosts.remove(host);
}

} // namespace ui
