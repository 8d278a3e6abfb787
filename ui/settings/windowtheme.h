#pragma once

#include "model/outcome.h"

#include <QPalette>
#include <QString>

namespace ui {

// The window's colours: the desktop's own (System), or a light or dark palette whatever the desktop
// uses. Saved by name so that a settings file from a later version with more themes still loads.
enum class WindowTheme { System, Light, Dark };

QString themeName(WindowTheme theme);           // "system", "light", "dark"
WindowTheme themeFromName(const QString &name); // unknown names: System
QPalette lightPalette();
QPalette darkPalette();
// True when text is drawn light on dark: the charts pick their colours by it.
bool isDarkPalette(const QPalette &palette);
// WCAG 2 contrast ratio of two colours, 1 to 21 (text wants at least 4.5).
double contrastRatio(const QColor &a, const QColor &b);
// The Outcome column's text colour: green ok, grey for outcomes decided by rules or the user, red
// failures; lighter shades on a dark palette so that each stays readable on its base.
QColor outcomeColor(crawl::Outcome outcome, const QPalette &palette);

} // namespace ui
