// The icons compiled into crawlscope_resources are reachable under the paths the window uses, and
// Qt renders them (the SVG ones need Qt's SVG icon engine plugin, Debian package libqt6svg6).
#include <QFile>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QStringList>
#include <QTest>

class TestResources : public QObject {
    Q_OBJECT

private:
    static QStringList actionNames() {
        return {QStringLiteral("document-open"),        QStringLiteral("edit-paste"),
                QStringLiteral("media-playback-start"), QStringLiteral("media-playback-pause"),
                QStringLiteral("media-playback-stop"),  QStringLiteral("view-refresh"),
                QStringLiteral("document-save-as"),     QStringLiteral("configure"),
                QStringLiteral("help-about"),           QStringLiteral("crawlscope-host-pause"),
                QStringLiteral("crawlscope-host-skip")};
    }

    // True when some pixel of the image is not fully transparent.
    static bool hasInk(const QImage &image) {
        const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
        for (int y = 0; y < argb.height(); ++y) {
            for (int x = 0; x < argb.width(); ++x) {
                if (qAlpha(argb.pixel(x, y)) > 0)
                    return true;
            }
        }
        return false;
    }

private Q_SLOTS:
    void applicationIconRendersAtEverySize() {
        const QString path = QStringLiteral(":/icons/crawlscope.svg");
        QVERIFY2(QFile::exists(path), "the application icon is not in the resources");
        const QIcon icon(path);
        QVERIFY2(!icon.isNull(),
                 "QIcon cannot read the SVG: is Qt's SVG icon engine installed (libqt6svg6)?");
        for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
            const QPixmap pixmap = icon.pixmap(size, size);
            QCOMPARE(pixmap.width(), size);
            QVERIFY2(hasInk(pixmap.toImage()), qPrintable(QStringLiteral("blank at %1 px").arg(size)));
        }
    }

    void pngCopiesMatchTheirSize() {
        for (const int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
            const QString path = QStringLiteral(":/icons/png/crawlscope-%1.png").arg(size);
            const QImage image(path);
            QVERIFY2(!image.isNull(), qPrintable(path));
            QCOMPARE(image.size(), QSize(size, size));
            QVERIFY(hasInk(image));
        }
    }

    void actionIconFallbacksRender() {
        for (const QString &name : actionNames()) {
            const QString path = QStringLiteral(":/icons/actions/%1.svg").arg(name);
            QVERIFY2(QFile::exists(path), qPrintable(path));
            // What the window does; an empty theme name search path makes the fallback win.
            const QIcon icon = QIcon::fromTheme(name, QIcon(path));
            QVERIFY2(!icon.isNull(), qPrintable(name));
            const QIcon fallback(path);
            const QPixmap pixmap = fallback.pixmap(16, 16);
            QCOMPARE(pixmap.width(), 16);
            QVERIFY2(hasInk(pixmap.toImage()), qPrintable(path));
        }
    }
};

QTEST_MAIN(TestResources)
#include "tst_icon_resources.moc"
