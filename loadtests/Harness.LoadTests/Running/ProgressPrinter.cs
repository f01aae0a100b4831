using Harness.LoadTests.Cli;
using Harness.LoadTests.Engine;
using Spectre.Console;

namespace Harness.LoadTests.Running;

/// <summary>
/// The progress line: current series, whether it is warming up, users, req/s, errors and time left. On a terminal it
/// is rewritten in place every second; when output is redirected (logs) or CI is set, a full line is written every
/// five seconds.
/// </summary>
/// <param name="seriesDuration">One series' planned length, warm-up included, for the time left.</param>
internal sealed class ProgressPrinter(IAnsiConsole console, int seriesCount, TimeSpan seriesDuration)
{
    private readonly bool _interactive = Terminal.Interactive;
    private readonly Lock _lock = new();
    private string _series = "";
    private int _index;
    private long _lastRequests;
    private int _lastSecond;
    private TimeSpan _offset;
    private TimeSpan _warmUpEnds;
    private TimeSpan _after;

    public void StartSeries(int index, string seriesId)
    {
        lock (_lock)
        {
            _index = index;
            _series = seriesId;
        }

        StartScenario(TimeSpan.Zero, TimeSpan.Zero, TimeSpan.Zero);
    }

    /// <summary>A scenario of the current series starts (a series runs one, or a warm-up burst and then the measured one).</summary>
    /// <param name="offset">Where it starts in the series.</param>
    /// <param name="warmUpEnds">Series time until which the line says "warm-up".</param>
    /// <param name="after">Planned time of the series' scenarios still to come after this one.</param>
    public void StartScenario(TimeSpan offset, TimeSpan warmUpEnds, TimeSpan after)
    {
        lock (_lock)
        {
            _offset = offset;
            _warmUpEnds = warmUpEnds;
            _after = after;
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
            var elapsed = _offset + p.Elapsed;
            var duration = _offset + p.Duration + _after;
            var phase = elapsed < _warmUpEnds ? "warm-up " : "";
            var left = TimeSpan.FromSeconds(Math.Max(0, (duration - elapsed).TotalSeconds))
                + (seriesDuration * Math.Max(0, seriesCount - _index - 1));
            var line =
                $"[{_index + 1}/{seriesCount} {_series}] {phase}{elapsed:mm\\:ss}/{duration:mm\\:ss}  users {p.Users}  " +
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
