using Harness.ServiceDefaults;
using Harness.SoapService;
using Serilog;

Log.Logger = HarnessLogging.CreateBootstrapLogger("soap");
try
{
    await SoapApp.Build(args).RunAsync();
    return 0;
}
catch (Exception ex) when (ex is not HostAbortedException)
{
    Log.Fatal(ex, "The SOAP service stopped: {Reason}", ex.Message);
    return 1;
}
finally
{
    await Log.CloseAndFlushAsync();
}
