// SPDX-License-Identifier: GPL-3.0-or-later
// The servers the real-server tests run against (pg_installations.h): each one found starts from its
// own binaries, answers on its socket as the version it is named for, and has the extensions the
// recording uses; a missing one is a skip that names it.
#include "pg_server.h"

#include <QTest>

using namespace la;

class TestPgServers : public QObject {
    Q_OBJECT
private slots:
    void startsAsItsVersion_data();
    void startsAsItsVersion();
    void backwardCombiningBuildHasTestAio();
};

void TestPgServers::startsAsItsVersion_data() {
    test::addInstallationRows();
}

void TestPgServers::startsAsItsVersion() {
    QFETCH(test::PgInstallation, installation);
    LA_SKIP_WITHOUT_SERVER(installation);
    test::PgServer server(installation);
    const QString started = server.start();
    QVERIFY2(started.isEmpty(), qPrintable(started));
    QString error;
    const int versionNum = server.sql(QStringLiteral("SHOW server_version_num"), error).toInt();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(versionNum / 10000, installation.major);
    server.sql(QStringLiteral("CREATE EXTENSION pg_buffercache"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    if (installation.major >= 18) {
        QCOMPARE(server.sql(QStringLiteral("SHOW io_method"), error), QStringLiteral("worker"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
}

void TestPgServers::backwardCombiningBuildHasTestAio() {
    const test::PgInstallation installation = test::sharedPgCf7035();
    LA_SKIP_WITHOUT_SERVER(installation);
    test::PgServer server(installation);
    const QString started = server.start(false, QStringLiteral("io_method = sync"));
    QVERIFY2(started.isEmpty(), qPrintable(started));
    QString error;
    server.sql(QStringLiteral("CREATE EXTENSION test_aio; CREATE EXTENSION pg_buffercache; CREATE TABLE r(a "
                              "int) WITH (fillfactor = 10); "
                              "INSERT INTO r SELECT generate_series(1, 2000)"),
               error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString blocks = server.sql(QStringLiteral("SELECT pg_relation_size('r') / 8192"), error);
    QVERIFY2(blocks.toInt() > 16, qPrintable(blocks));
    // Streams a descending block list through the patched read stream, every block handed back.
    server.sql(
        QStringLiteral("SELECT evict_rel('r'::regclass); "
                       "SELECT read_stream_for_blocks('r'::regclass, ARRAY[15,14,13,12,11,10,9,8]::int[])"),
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QString resident =
        server.sql(QStringLiteral("SELECT count(*) FROM pg_buffercache WHERE relfilenode = "
                                  "pg_relation_filenode('r') AND relblocknumber BETWEEN 8 AND 15"),
                   error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(resident, QStringLiteral("8"));
}

QTEST_GUILESS_MAIN(TestPgServers)
#include "tst_pg_servers.moc"
