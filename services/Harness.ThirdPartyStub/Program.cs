using Harness.ThirdPartyStub;
using Harness.ServiceDefaults;

return await HarnessHost.RunAsync("stub", StubApp.Build, args);
