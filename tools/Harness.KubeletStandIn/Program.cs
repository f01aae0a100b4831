using System.Runtime.InteropServices;
using Harness.KubeletStandIn;
using Harness.KubeletStandIn.Cli;
using Harness.KubeletStandIn.Manifests;
using Harness.KubeletStandIn.Runtime;

// The kubelet stand-in (docs/kubernetes.md, "Running the manifests here"). Its last line is always "restarts: N".
var log = new RunLog();
using var interrupt = new CancellationTokenSource();
// SIGINT and SIGTERM stop the run and let the clean-up finish; the process does not die mid-way.
using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
var restarts = 0;
int code;
try
{
    if (args.Any(a => a is "-h" or "--help"))
    {
        Console.WriteLine(Options.Usage);
        code = StandIn.Success;
    }
    else
    {
        var standIn = new StandIn(Options.Parse(args), log);
        try
        {
            code = await standIn.RunAsync(interrupt.Token);
        }
        finally
        {
            restarts = standIn.LivenessRestarts;
        }
    }
}
catch (Exception ex) when (ex is UsageException or ManifestException or RuntimeUnavailableException or Harness.KubeletStandIn.Pods.PodConfigException)
{
    Console.Error.WriteLine("error: " + ex.Message);
    code = StandIn.BadUsage;
}
catch (OperationCanceledException) when (interrupt.IsCancellationRequested)
{
    Console.Error.WriteLine("interrupted");
    code = StandIn.Interrupted;
}
catch (Exception ex)
{
    // Whatever went wrong, the clean-up has run (StandIn's finally) and the last line is still the restart count.
    Console.Error.WriteLine($"error: the stand-in failed: {ex}");
    code = StandIn.Failure;
}

Console.Error.Flush();
Console.WriteLine($"restarts: {restarts}");
return code;

void Stop(PosixSignalContext context)
{
    context.Cancel = true;
    interrupt.Cancel();
}
