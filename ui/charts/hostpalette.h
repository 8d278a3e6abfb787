#pragma once

#include <QColor>
#include <QHash>
#include <QString>

namespace ui {

// One colour per host, given in the order hosts are first asked about and kept for the crawl, so the
// in-flight chart and the Hosts table's swatch always agree.
class HostPalette {
public:
    QColor colorFor(const QString &host);
    void clear() { m_assigned.clear(); }

private:
    QHash<QString, int> m_assigned;
};

} // namespace ui
