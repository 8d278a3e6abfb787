#include "pages/actionicon.h"

#include <QFile>

namespace ui {

QIcon actionIcon(const QString &name) {
    const QString resource = QStringLiteral(":/icons/actions/%1.svg").arg(name);
    return QIcon::fromTheme(name, QFile::exists(resource) ? QIcon(resource) : QIcon());
}

} // namespace ui
