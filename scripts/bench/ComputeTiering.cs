#:project ../../services/Harness.Workloads/Harness.Workloads.csproj
// One process of scripts/bench-compute-tiering.sh: warms CpuWorkload.Run the way a service does (several threads at
// once), then prints the least CPU time of the measured calls, in ms. The least of several calls is the code's own
// speed: preemption by other work on the machine only ever adds to a call's time.
using System.Diagnostics;
using Harness.Workloads;

var iterations = int.Parse(args[0]);
var warmThreads = int.Parse(args[1]);
var warmCallsPerThread = int.Parse(args[2]);
var measuredCalls = int.Parse(args[3]);

var warmers = Enumerable.Range(0, warmThreads)
    .Select(_ => new Thread(() =>
    {
        for (var k = 0; k < warmCallsPerThread; k++)
        {
            CpuWorkload.Run(iterations);
        }
    }))
    .ToList();
warmers.ForEach(t => t.Start());
warmers.ForEach(t => t.Join());

var least = double.MaxValue;
for (var i = 0; i < measuredCalls; i++)
{
    var before = Process.GetCurrentProcess().TotalProcessorTime;
    CpuWorkload.Run(iterations);
    least = Math.Min(least, (Process.GetCurrentProcess().TotalProcessorTime - before).TotalMilliseconds);
}

Console.WriteLine(least.ToString("F1", System.Globalization.CultureInfo.InvariantCulture));
