import { endpoints } from "../../common/endpoints.ts";
import { mounts } from "../../common/mounts.ts";
import type { SampleContentService } from "../content/sample-content.ts";
import type { AdminEnv } from "../http/env.ts";
import { routesAt } from "../http/routes.ts";
import type { SiteSettingsService } from "./site-settings.ts";

/**
 * The poet's site settings on the admin router (server/admin-router.ts), and starting fresh: the
 * sample content listed and removed, every ember and each tag's use shown before a delete.
 */
export function settingsRoutes({
  siteSettings,
  sampleContent,
}: {
  siteSettings: SiteSettingsService;
  sampleContent: SampleContentService;
}) {
  return routesAt<AdminEnv>(mounts.admin)
    .call(endpoints.getSiteSettings, (_input, c) => siteSettings.get(c.var.admin))
    .call(endpoints.updateSiteSettings, ({ body }, c) => siteSettings.update(c.var.admin, body))
    .call(endpoints.listSampleContent, (_input, c) => sampleContent.list(c.var.admin))
    .call(endpoints.removeSampleContent, (_input, c) => sampleContent.remove(c.var.admin))
    .call(endpoints.listTagUsage, (_input, c) => sampleContent.tagUsage(c.var.admin))
    .call(endpoints.listAllEmbers, (_input, c) => sampleContent.allEmbers(c.var.admin)).router;
}
