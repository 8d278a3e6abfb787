#pragma once

#include <QIcon>
#include <QString>

namespace ui {

// The theme's icon, else the one bundled in the resources (when linked), else none.
QIcon actionIcon(const QString &name);

} // namespace ui
