import type { RegistrationResponse } from '../../../schemas/registry.ts';

/** What the fake registry kept of one `POST /v2/agents`. */
export interface Registration {
  address: string;
  name: string;
  url: string;
  readme: string;
  authorization: string | null;
}

/** A well-formed RegistrationResponse for a registration body (the registry's own analysis is not the router's concern). */
export function registrationResponse(registration: Registration): RegistrationResponse {
  const now = new Date().toISOString();
  return {
    success: true,
    created: true,
    agent: {
      address: registration.address,
      name: registration.name,
      readme: registration.readme,
      status: 'local',
      total_interactions: 0,
      recent_interactions: 0,
      cross_account_interactions: 0,
      agent_rank: 0,
      rating: null,
      type: 'custom',
      category: 'community',
      featured: false,
      geo_location: null,
      last_updated: now,
      created_at: now,
      handle: null,
      description: '',
      tags: [],
      protocols: [],
      url: registration.url,
      endpoints: [{ url: registration.url, weight: 1 }],
      domain_tags: [],
      use_cases: [],
      functions: [],
      profile: { description: '', avatar_url: null, banner_url: null, starter_prompts: [] },
      metadata: null,
      is_active: true,
      public: true,
      last_status_update: null,
      last_probe_at: null,
      last_probe_ok: null,
    },
    readme: { tags: [], domain_tags: [], invalid_domain_badges: [], description: '', use_cases: [], functions: [] },
  };
}
