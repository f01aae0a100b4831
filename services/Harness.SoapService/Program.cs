using Harness.SoapService;
using Harness.ServiceDefaults;

return await HarnessHost.RunAsync("soap", SoapApp.Build, args);
