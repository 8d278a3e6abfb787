#include "headlessdemo.h"

#include "demosettings.h"
#include "demosite.h"
#include "headlessrunner.h"

#include <cstdio>

namespace demo {

namespace {

void printErr(const QString &text) {
    const QByteArray bytes = text.toLocal8Bit();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
}

} // namespace

int runHeadlessDemo(crawl::CommandLineOptions options) {
    const DemoSettings settings = demoSettings({options.limits, options.policy}, options.explicitFlags);
    options.limits = settings.limits;
    options.policy = settings.policy;
    testsite::DemoSite site(demoScale());
    if (!site.isListening()) {
        printErr(QStringLiteral("crawlscope: the demo site could not start: %1\n").arg(site.errorString()));
        return crawl::ExitUsage;
    }
    QString banner = QStringLiteral("crawlscope demo: crawling the built-in site on loopback\n");
    for (const auto &profile : site.profiles())
        banner += QStringLiteral("  %1  %2  (%3 URLs) %4\n")
                      .arg(profile.host, -22)
                      .arg(profile.name, -12)
                      .arg(profile.urls)
                      .arg(profile.description);
    printErr(banner);
    return crawl::runHeadless(options, crawl::InputSource::fromText(site.urlList()),
                              QStringLiteral("crawlscope-demo.csv"));
}

} // namespace demo
