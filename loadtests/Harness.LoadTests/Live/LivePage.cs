using System.Net;
using System.Reflection;
using System.Text;
using Harness.LoadTests.Reporting.Formats;

namespace Harness.LoadTests.Live;

/// <summary>
/// The <c>--live</c> page, in the report's page shell (<see cref="HtmlPage"/>: its style sheet and Chart.js inlined, so
/// it needs no network, as the report), with the report's chart helpers and live.js, which asks <c>/data</c> for each
/// new second and adds it to the charts.
/// </summary>
internal static class LivePage
{
    private static readonly Lazy<string> Script = new(() =>
    {
        using var stream = Assembly.GetExecutingAssembly().GetManifestResourceStream("Harness.LoadTests.Live.live.js")
            ?? throw new InvalidOperationException("Live/live.js is not embedded in the harness.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    });

    public static string Render(string title)
    {
        var html = new StringBuilder(256 * 1024);
        HtmlPage.AppendHead(html, $"Harness live · {WebUtility.HtmlEncode(title)}", " data-seconds-received=\"0\" data-updates=\"0\" data-ended=\"false\"");
        html.Append($$"""
            <header class="top">
            <div class="brand">Harness · live</div>
            <h1 id="series">waiting for the first second…</h1>
            <div class="meta">{{WebUtility.HtmlEncode(title)}} · <b id="received">0</b> seconds of this series received · <span id="state">running</span></div>
            </header>
            <main>
            <div id="report-errors"></div>
            <section class="panel">
            <h2>Current series</h2>
            <p class="lead" id="line" style="white-space: pre-wrap">The progress line of the last second appears here.</p>
            <div class="charts" id="charts"></div>
            <p class="note">Per second, as the progress line: latency of the successful requests that completed in that second; warm-up seconds are shaded. The report, written when the run ends, has every figure.</p>
            </section>
            </main>
            <footer>Harness live page · charts by {{WebUtility.HtmlEncode(HtmlPage.ChartLibrary)}}, inlined: this page needs no network beyond the harness.</footer>

            """);
        HtmlPage.AppendScripts(html, "{}", HtmlPage.HelperScript, Script.Value);
        return html.ToString();
    }
}
