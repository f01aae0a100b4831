using Harness.ServiceDefaults;
using Harness.ThirdPartyStub;
using Serilog;

Log.Logger = HarnessLogging.CreateBootstrapLogger("stub");
try
{
    await StubApp.Build(args).RunAsync();
    return 0;
}
catch (Exception ex) when (ex is not HostAbortedException)
{
    Log.Fatal(ex, "The stub stopped: {Reason}", ex.Message);
    return 1;
}
finally
{
    await Log.CloseAndFlushAsync();
}
