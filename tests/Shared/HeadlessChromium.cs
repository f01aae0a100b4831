using System.Diagnostics;

namespace Harness.Tests.Shared;

/// <summary>
/// Headless Chromium for the tests that check pages draw (the report, the comparison, the <c>--live</c> page).
/// Chromium is required, not optional: without it those tests fail and say how to install it (CI installs it).
/// Linked into each test project that opens a page.
/// </summary>
internal static class HeadlessChromium
{
    public const string InstallHint = "Headless Chromium is needed to check that the pages' charts draw. Install it with: apt-get update && apt-get install -y chromium";

    /// <summary>Chromium on PATH, or null.</summary>
    public static string? Find()
    {
        string[] names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
        var path = Environment.GetEnvironmentVariable("PATH") ?? string.Empty;
        return names
            .SelectMany(name => path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries).Select(dir => Path.Combine(dir, name)))
            .FirstOrDefault(File.Exists);
    }

    /// <summary>
    /// Loads <paramref name="url"/> and returns the DOM once its scripts have run for <paramref name="virtualTimeMs"/> of
    /// Chromium's virtual time (which stands still while a request is pending, so a page that keeps asking stays open
    /// until its server stops answering). Fails the test when Chromium is missing, fails or outlasts <paramref name="timeout"/>.
    /// </summary>
    public static async Task<string> DumpDomAsync(Uri url, string workDirectory, TimeSpan timeout, int virtualTimeMs = 5000)
    {
        var browser = Find();
        Assert.True(browser is not null, InstallHint);
        var profile = Path.Combine(workDirectory, "chromium-profile");
        Directory.CreateDirectory(profile);
        var start = new ProcessStartInfo(browser)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[]
        {
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", $"--user-data-dir={profile}",
            "--window-size=1400,4000", $"--virtual-time-budget={virtualTimeMs}", "--dump-dom", url.AbsoluteUri,
        })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {browser}.");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"Chromium did not finish within {timeout.TotalSeconds} s. stderr: {await stderr}");
        }

        var dom = await stdout;
        if (process.ExitCode != 0 || dom.Length == 0)
        {
            Assert.Fail($"Chromium exited with {process.ExitCode}. stderr: {await stderr}");
        }

        return dom;
    }
}
