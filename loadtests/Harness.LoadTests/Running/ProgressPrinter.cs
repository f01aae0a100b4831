using Harness.LoadTests.Cli;
using Harness.LoadTests.Engine;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// The progress line: current series, users, req/s, errors and time left. On a terminal it is rewritten in
/// place every second; when output is redirected (logs) or CI is set, a full line is written every five seconds.
/// </summary>
internal sealed class ProgressPrinter(IAnsiConsole console, int seriesCount, TimeSpan seriesDuration)
{
    private readonly bool _interactive = Terminal.Interactive;
    private readonly Lock _lock = new();
    private string _series = "";
    private int _index;
    private long _lastRequests;
    private int _lastSecond;

    public void StartSeries(int index, string seriesId)
    {
        lock (_lock)
        {
            _index = index;
            _series = seriesId;
            _lastRequests = 0;
            _lastSecond = 0;
        }
    }

    public void Update(LoadProgress p)
    {
        lock (_lock)
        {
            var seconds = Math.Max(1, p.Second - _lastSecond);
            var rate = (p.Requests - _lastRequests) / (double)seconds;
            _lastRequests = p.Requests;
            _lastSecond = p.Second;
            var left = TimeSpan.FromSeconds(Math.Max(0, (p.Duration - p.Elapsed).TotalSeconds))
                + (seriesDuration * Math.Max(0, seriesCount - _index - 1));
            var line =
                $"[{_index + 1}/{seriesCount} {_series}] {p.Elapsed:mm\\:ss}/{p.Duration:mm\\:ss}  users {p.Users}  " +
                $"{rate:F0} req/s  in flight {p.RequestsInFlight}  errors {p.Failures}/{p.Requests}  run left ~{left:hh\\:mm\\:ss}";
            if (_interactive)
            {
                // Carriage return, then erase to the end of the line (ANSI), so a shorter line leaves no tail.
                Console.Write("\r" + line + "\u001b[K");
            }
            else if (p.Second % 5 == 0)
            {
                console.WriteLine(line);
            }
        }
    }

    public void EndSeries()
    {
        if (_interactive)
        {
            Console.WriteLine();
        }
    }
}
